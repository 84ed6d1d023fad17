"""How the site is built, one module per job. build.py is the command line over them.

    paths       where everything is: the project, vendor/, generated/, dist/, the download cache
    downloads   fetching a pinned file from the first source that has it, checked against its hash
    cached_trees  folders installed into the cache or vendor/, safe with several processes at once, checked on use
    runtime     vendor/pyodide/: Pyodide 0.27.7 and NumPy 2.0.2, every file verified (and micropip, for the tests)
    bytecode    the runtime's standard library and NumPy compiled ahead, by the runtime itself under Node.js
                (pyc_archive does the compiling, bytecode.mjs runs it), so the page does not compile them at
                every start
    wheels      the in-Pyodide test run's wheels (pytest, hypothesis): pinned, fetched with pip, listed for
                micropip; not a step of the build, the page installs none
    editor      vendor/codemirror/: CodeMirror 6 from the npm registry, every tarball verified
    generated   generated/: the presets, the preview, the module as a zip, the facts the JavaScript shares
    notebook    the notebook widget's view (one ES module, one scoped stylesheet), bundled into the package
    csp         the Content-Security-Policy, defined once
    page        index.html as served: the policy and the module preload list written into it
    site        dist/: a folder to upload to any static host
    variants    the offline manifest, the offline zip and the CDN site, made from dist/
    server      the development server (`python3 build.py serve`)
    chromium    the Chromium the browser tests and the benchmarks start, and how they start it

Standard library only, so that it runs before anything is installed (computing the preview needs NumPy:
build.py re-runs itself in the project's .venv when the running Python lacks it).
"""
