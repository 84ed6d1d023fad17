"""How the runtime packs matrices, in real Chromium: the worker packs compute's replies only, a scene is packed where
its matrices are all numbers (as the page sends it), and unpacking keeps every float and nulls what is not
finite.
"""

from runtime_helpers import HARNESS, native_result


# Talk to the worker directly, without the client, to see the replies as they travel.
RAW_WORKER_REPLIES = """async (scene) => {
  const worker = new Worker("/js/runtime/worker.js", { type: "module" });
  const replies = new Map();
  const ready = new Promise((resolve) => {
    worker.addEventListener("message", ({ data }) => {
      if (data.type === "progress" && data.stage === "ready") resolve();
      if (data.id !== undefined) replies.get(data.id)(data);
    });
  });
  const send = (id, kind, payload, matrices) => new Promise((resolve) => {
    replies.set(id, resolve);
    worker.postMessage(matrices === undefined ? { id, kind, payload } : { id, kind, payload, matrices });
  });
  await ready;
  const compute = await send(1, "compute", { scene });
  const presets = await send(2, "presets", {});
  const bad = await send(3, "compute", { scene: { ...scene, tokens: [] } });
  // The same scene packed as the page sends it, and a packed request whose numbers are not a Float64Array.
  const { packScene, unpackMatrices, withInputsSent } = await import("/js/runtime/client.js");
  const { payload, matrices, sent } = packScene(scene);
  const packedCompute = await send(4, "compute", payload, matrices);
  const badNumbers = await send(5, "compute", payload, [1, 2, 3]);
  // The page keeps what it sent: the packed reply leaves out the inputs the request sent packed, and the client
  // puts them back; what it then holds is the plain request's result, to the bit.
  const readBack = (reply) => unpackMatrices(structuredClone(reply.result), reply.matrices);
  worker.terminate();
  // Every number the same to the bit (-0 is not 0), walking both results in step.
  const sameNumbers = (a, b) => (typeof a === "number" ? Object.is(a, b) : a === null || typeof a !== "object" ? a === b
    : Object.keys(a).length === Object.keys(b ?? {}).length && Object.keys(a).every((key) => sameNumbers(a[key], b[key])));
  const stages = compute.result.heads[0].stages;
  const descriptors = [];
  JSON.stringify(compute.result, (key, value) => {
    if (key === "$matrix") descriptors.push(value);
    return value;
  });
  return {
    matricesType: Object.prototype.toString.call(compute.matrices),
    matricesLength: compute.matrices.length,
    descriptors,
    weights: stages.weights,
    headWeights: compute.result.heads[0].weights,
    output: compute.result.output,
    mask: compute.result.mask,
    presetsHaveMatrices: "matrices" in presets,
    badHasMatrices: "matrices" in bad,
    badType: bad.error.type,
    packedSentNumbers: matrices instanceof Float64Array && JSON.stringify(payload).includes("$matrix"),
    packedLeftOutWhatItSent: !("X" in packedCompute.result) && !("Wq" in packedCompute.result.heads[0]),
    packedSameResult: JSON.stringify(withInputsSent(readBack(packedCompute), sent)) === JSON.stringify(readBack(compute)),
    packedSameNumbers: sameNumbers(withInputsSent(readBack(packedCompute), sent), readBack(compute)),
    badNumbersType: badNumbers.error.type,
  };
}"""


def test_the_worker_packs_compute_replies_only(page, site_url):
    page.goto(site_url + HARNESS)
    scene = native_result("preset", {"id": "dog-bites-man"})
    raw = page.evaluate(RAW_WORKER_REPLIES, scene)
    n_tokens = len(scene["tokens"])
    plain = native_result("compute", {"scene": scene})
    assert raw["matricesType"] == "[object Float64Array]"
    assert raw["weights"] == raw["headWeights"] == {"$matrix": [raw["weights"]["$matrix"][0], n_tokens, n_tokens]}
    assert raw["output"]["$matrix"][1:] == [n_tokens, len(plain["output_dims"])]
    assert len(raw["descriptors"]) > 8, "every stage and more"
    assert raw["matricesLength"] == max(offset + rows * cols for offset, rows, cols in raw["descriptors"])
    assert raw["mask"] == plain["mask"], "the mask (booleans) travels as it is"
    assert raw["presetsHaveMatrices"] is False and raw["badHasMatrices"] is False
    assert raw["badType"] == "SceneError"
    # A packed request is answered as the plain one, less the inputs it sent, which the client puts back: then
    # exactly as the plain one. Numbers of the wrong type are refused.
    assert raw["packedSentNumbers"] and raw["packedLeftOutWhatItSent"]
    assert raw["packedSameResult"] and raw["packedSameNumbers"]
    assert raw["badNumbersType"] == "BadRequest"


PACK_CASES = """async () => {
  const { packScene } = await import("/js/runtime/client.js");
  const { MATRIX_KEY } = await import("/js/runtime/protocol.js");
  const scene = {
    title: "t", X: [[1, -0], [2.5, 3]], mask: [[false, true], [false, false]],
    heads: [{ Wq: [[1], [2]], Wk: [[0.5], ["typed"]], Wv: null }, { Wq: [[1, 2], [3]], Wk: [], Wv: [[NaN], [1]] }],
  };
  const before = JSON.stringify(scene);
  const { payload, matrices } = packScene(scene);
  const packed = payload.scene;
  const nothing = packScene({ title: "t", X: [["a"]], heads: [] });
  return {
    unchanged: JSON.stringify(scene) === before,
    X: packed.X, Wq: packed.heads[0].Wq, Wk: packed.heads[0].Wk, Wv: packed.heads[0].Wv,
    others: [packed.heads[1].Wq, packed.heads[1].Wk, packed.heads[1].Wv].map((m) => MATRIX_KEY in Object(m)),
    mask: packed.mask,
    numbers: Array.from(matrices, (value) => (Object.is(value, -0) ? "-0" : value)),
    nothing: nothing.matrices === null && nothing.payload.scene.X[0][0] === "a",
    notAScene: packScene("text").payload.scene === "text" && packScene("text").matrices === null,
  };
}"""


def test_a_scene_is_packed_where_its_matrices_are_all_numbers(page, site_url):
    page.goto(site_url + HARNESS)
    outcome = page.evaluate(PACK_CASES)
    assert outcome == {
        "unchanged": True,
        "X": {"$matrix": [0, 2, 2]},
        "Wq": {"$matrix": [4, 2, 1]},
        "Wk": [[0.5], ["typed"]],  # typed text stays, for Python to name the cell
        "Wv": None,
        "others": [False, False, False],  # ragged, empty, not finite: left as they are
        "mask": [[False, True], [False, False]],
        "numbers": [1, "-0", 2.5, 3, 1, 2],
        "nothing": True,
        "notAScene": True,
    }


UNPACK_CASES = """async () => {
  const { unpackMatrices } = await import("/js/runtime/client.js");
  const { MATRIX_KEY } = await import("/js/runtime/protocol.js");
  const values = new Float64Array([9, -0, NaN, -Infinity, Infinity, 5e-324, 1.7976931348623157e308, -1.5, 7]);
  const packed = { a: { [MATRIX_KEY]: [1, 2, 4] }, list: [{ [MATRIX_KEY]: [7, 1, 1] }, "text", [true, null]],
                   empty: { [MATRIX_KEY]: [0, 0, 0] }, near: { [MATRIX_KEY]: [8, 1, 1], other: 1 } };
  const unpacked = unpackMatrices(packed, values);
  const a = unpacked.a;
  let outside = null;
  try {
    unpackMatrices({ [MATRIX_KEY]: [6, 2, 2] }, values);
  } catch (error) {
    outside = error instanceof RangeError;
  }
  return {
    negativeZero: Object.is(a[0][0], -0),
    a: a.map((row) => row.map((value) => (value === null ? "null" : String(value)))),
    list: unpacked.list,
    empty: unpacked.empty,
    near: unpacked.near,
    outside,
  };
}"""


def test_unpacking_keeps_every_float_and_nulls_what_is_not_finite(page, site_url):
    page.goto(site_url + HARNESS)
    outcome = page.evaluate(UNPACK_CASES)
    assert outcome == {
        "negativeZero": True,
        "a": [["0", "null", "null", "null"], ["5e-324", "1.7976931348623157e+308", "-1.5", "7"]],
        "list": [[[-1.5]], "text", [True, None]],
        "empty": [],
        "near": {"$matrix": [8, 1, 1], "other": 1},
        "outside": True,
    }
