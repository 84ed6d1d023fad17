/**
 * The views' actions, put together from the groups that offer them (the scene, the page, the panels): each
 * action is one group's, named once.
 */

import { loadOnce } from "../loading/later-parts.js";

/**
 * One object of every group's actions; a name two groups both give is a mistake, refused at once (one would
 * silently replace the other).
 * @param {Record<string, object>} groups
 * @returns {Readonly<Record<string, Function>>}
 */
export function combineActions(groups) {
  const actions = {};
  const from = {};
  for (const [group, members] of Object.entries(groups)) {
    for (const [name, action] of Object.entries(members)) {
      if (Object.hasOwn(actions, name)) throw new Error(`the action "${name}" is both ${from[name]}'s and ${group}'s`);
      actions[name] = action;
      from[name] = group;
    }
  }
  return Object.freeze(actions);
}

/** @typedef {(...args: any[]) => any} Action an action a view calls: its arguments and answer are the group's */

/**
 * A group's actions whose code loads on the first call of any of them (or on `ready()`). Until it has loaded, each
 * returns a promise of its answer; once it has, each is the group's own action, called as it is (an action that
 * answers at once still does, for a view mounted after `ready()`).
 * @param {() => Promise<Record<string, Action>>} load loads the code and gives the group's actions
 * @param {readonly string[]} names the actions' names (panel-actions.js)
 * @returns {{actions: Record<string, Action>, ready: () => Promise<Record<string, Action>>}}
 */
export function lazyActions(load, names) {
  let loaded = null; // the group's actions, once loaded
  const ready = loadOnce(() => load().then((group) => (loaded = group)));
  const actions = Object.fromEntries(names.map((name) => [name, (...args) => (loaded ? loaded[name](...args) : ready().then((group) => group[name](...args)))]));
  return { actions, ready };
}
