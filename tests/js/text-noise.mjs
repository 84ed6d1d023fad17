// Text that does not compress, for the tests of suspend data's size limit (lms.test.mjs, lms-record.test.mjs).

/** `count` characters drawn from a seeded generator (a linear congruential one: the same text for a seed). */
export function noise(seed, count) {
  let state = seed;
  let text = "";
  for (let index = 0; index < count; index += 1) {
    state = (state * 1103515245 + 12345) % 2147483648;
    text += String.fromCharCode(33 + (state % 90));
  }
  return text;
}
