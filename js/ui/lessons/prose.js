/**
 * A lesson's prose, drawn from the tree the build compiled it into (py/attention_playground/lessons/format.py):
 * paragraphs, headings, lists, quotes, rules, line breaks, emphasis, strong, code, code blocks, links and text. Everything is made with DOM
 * calls and textContent, never from HTML, so nothing a lesson file says can run: a node of a type not listed
 * here is drawn as its text, and a link whose address is not http(s) or relative is drawn as text.
 */

import { make } from "../shared/dom.js";

/** The element each node type with children becomes (its children drawn inside it). */
const ELEMENTS = {
  paragraph: "p",
  emphasis: "em",
  strong: "strong",
  quote: "blockquote",
};

/** Whether `href` may be followed: an http(s) address, or one relative to the page (never javascript: or data:). */
function safeHref(href) {
  if (typeof href !== "string") return false;
  try {
    const url = new URL(href, document.baseURI);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** All the text of a node and its children, for a node drawn as text only. */
function textOf(node) {
  if (typeof node?.text === "string") return node.text;
  return Array.isArray(node?.children) ? node.children.map(textOf).join("") : "";
}

/** One node of the tree as DOM. */
function drawNode(node) {
  if (!node || typeof node !== "object") return document.createTextNode("");
  if (node.type === "text") return document.createTextNode(String(node.text ?? ""));
  if (node.type === "break") return make("br");
  if (node.type === "rule") return make("hr");
  if (node.type === "list") return drawList(node);
  if (node.type === "code_block") {
    const pre = make("pre", "lesson-code");
    pre.append(make("code", "", String(node.text ?? textOf(node))));
    return pre;
  }
  if (node.type === "heading") return fill(make(`h${Math.min(6, Math.max(4, Number(node.level) + 2 || 4))}`), node);
  if (node.type === "link") {
    if (!safeHref(node.href)) return document.createTextNode(textOf(node));
    const link = fill(make("a"), node);
    link.href = node.href;
    if (new URL(node.href, document.baseURI).origin !== location.origin) link.rel = "noopener";
    return link;
  }
  const tag = ELEMENTS[node.type];
  if (node.type === "code") return make("code", "", String(node.text ?? textOf(node)));
  return tag ? fill(make(tag), node) : document.createTextNode(textOf(node));
}

/** A list: each item a list of blocks. */
function drawList(node) {
  const list = make(node.ordered ? "ol" : "ul", node.tight ? "lesson-list tight" : "lesson-list");
  if (node.ordered && Number.isInteger(node.start) && node.start !== 1) list.start = node.start;
  for (const item of Array.isArray(node.items) ? node.items : []) {
    const entry = make("li");
    for (const block of Array.isArray(item) ? item : []) entry.append(drawNode(block));
    list.append(entry);
  }
  return list;
}

function fill(element, node) {
  for (const child of Array.isArray(node.children) ? node.children : []) element.append(drawNode(child));
  return element;
}

/**
 * The prose `blocks` as a fragment to put on the page.
 * @param {Array<object>|null} blocks
 * @returns {DocumentFragment}
 */
export function drawProse(blocks) {
  const fragment = document.createDocumentFragment();
  for (const block of Array.isArray(blocks) ? blocks : []) fragment.append(drawNode(block));
  return fragment;
}

/**
 * Inline nodes (a choice's option: lesson compile's `options`) as a fragment to put inside a label or a line.
 * @param {Array<object>|null|undefined} nodes
 * @returns {DocumentFragment}
 */
export function drawInline(nodes) {
  const fragment = document.createDocumentFragment();
  for (const node of Array.isArray(nodes) ? nodes : []) fragment.append(drawNode(node));
  return fragment;
}
