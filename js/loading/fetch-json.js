/**
 * A file of the site's own data (the examples, the lessons) as JSON: the one way the page fetches one.
 */

/** The JSON at `url`, or a rejection naming the HTTP status. */
export async function fetchJson(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}
