"""The Content-Security-Policy: what the page may load and run. Defined here once.

index.html carries it in a <meta> that page.py writes into the page as it is served and built. A dedicated
worker takes its policy from the response that served its script, never from the page's <meta>, so the
development server sends the same policy as a header with every script: the worker runs Pyodide under exactly
the page's rules. It needs 'wasm-unsafe-eval' to compile WebAssembly and nothing more (no 'unsafe-eval').
Static hosts: set this header at least on js/runtime/worker.js (e.g. a _headers file on Netlify or Cloudflare
Pages); without it the worker runs with no policy, and the page stays protected by its <meta>. frame-ancestors
cannot be set by <meta>; a host that wants to forbid framing sends it as a header.
"""

import re

#: The headers that make the page cross-origin isolated, so that SharedArrayBuffer exists and a learner's
#: runaway code can be interrupted (js/service/exercise-runner.js). The development server sends them,
#: dist/_headers asks a static host for them, and sw.js adds them where a host sends neither.
ISOLATION_HEADERS = {"Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp"}

CSP_DIRECTIVES = {
    "default-src": ["'self'"],
    "script-src": ["'self'", "'wasm-unsafe-eval'"],
    "worker-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:", "blob:"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
}

#: Where the page itself may fetch a course's own lesson file from, besides its site (js/lessons/lesson-sources.js):
#: any https site, and a course previewed on this machine. The policy cannot know a frame's `origins=`, so the page
#: checks the address against them (and against its own origin) before it fetches; the other site must allow the
#: read (CORS) too. The page's own policy (its <meta>, and dist/_headers) has these. The development server serves
#: the workers, which run Python and a learner's code, the policy that fetches from the site alone; a static host
#: that reads dist/_headers gives every path, the workers' scripts too, the page's.
LESSON_SOURCES = ("https:", "http://localhost:*", "http://127.0.0.1:*")

META_PATTERN = re.compile(
    r'(<meta\s+http-equiv=["\']Content-Security-Policy["\']\s+content=")([^"]*)(")', re.IGNORECASE)


def content_security_policy(runtime_hosts=(), connect_sources=()):
    """The policy as one header value. `runtime_hosts` are origins the runtime loads from besides the site
    itself (a build that takes Pyodide from a CDN passes that CDN's origin, e.g. "https://cdn.jsdelivr.net",
    and writes the same policy into its index.html's <meta>); `connect_sources` are more sources for
    connect-src alone."""
    directives = {name: list(sources) for name, sources in CSP_DIRECTIVES.items()}
    for host in runtime_hosts:
        directives["script-src"].append(host)
        directives["connect-src"].append(host)
    directives["connect-src"].extend(connect_sources)
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in directives.items())


def page_policy():
    """The page's own policy: the site's, and the sites a course's lesson file may come from (LESSON_SOURCES)."""
    return content_security_policy(connect_sources=LESSON_SOURCES)


def in_pyodide_tests_policy():
    """The policy of the in-Pyodide test run's worker (tests/in_pyodide/worker.js, served by the development
    server, never part of dist/): the page's, plus data: in connect-src for the one-link package indexes its
    installer hands micropip (tests/in_pyodide/wheels.js says why). The page installs nothing, so its own policy
    has no data: there."""
    return content_security_policy(connect_sources=["data:"])


def meta_tag(policy):
    return f'<meta http-equiv="Content-Security-Policy" content="{policy}">'


def add_host_to_csp(policy, origin):
    """Allow `origin` to serve scripts and be fetched from, in a Content-Security-Policy string.

    script-src and connect-src get it; a policy with neither but a default-src gets both, copied from
    default-src (adding it to default-src itself would open every other kind of request to it too).
    """
    directives = [part.strip() for part in policy.split(";") if part.strip()]
    names = [directive.split()[0].lower() for directive in directives]
    default = next((d for d, n in zip(directives, names) if n == "default-src"), None)
    for wanted in ("script-src", "connect-src"):
        if wanted in names:
            index = names.index(wanted)
            if origin not in directives[index].split():
                directives[index] += f" {origin}"
        elif default is not None:
            sources = default.split()[1:]
            sources = [s for s in sources if s != "'none'"]
            directives.append(" ".join([wanted, *sources, origin]))
    return "; ".join(directives)


def add_host_to_page_csp(html, origin):
    """The page with `origin` added to its Content-Security-Policy meta tag (unchanged if it has none)."""
    return META_PATTERN.sub(lambda m: m.group(1) + add_host_to_csp(m.group(2), origin) + m.group(3), html)
