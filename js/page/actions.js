/**
 * The views' actions, put together from the groups that offer them (the scene, the page, the panels): each
 * action is one group's, named once.
 */

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
