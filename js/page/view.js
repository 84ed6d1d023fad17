/**
 * The view's names and checks, for the page's own modules: they live in layout/view.js, where links
 * (sharing/) and embed mode (embed/) read them too without importing the page.
 */
export * from "../layout/view.js";
