/**
 * Form properties in the shapes elicitation defines. zod renders a union of titled string literals
 * (`z.union([z.literal('a').meta({ title: 'Apple' }), …])`) as an `anyOf` of `{type, const, title}`
 * branches; a form client only knows the SEP-1330 titled enum, `{type: 'string', oneOf: [{const,
 * title}]}` (and, for a multi-select, `items: {anyOf: [{const, title}]}`). This rewrites the first
 * into the second and leaves every other property — with its title, description and default — as is.
 */

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null;

/** The `{const, title}` choices of a zod-rendered union of string literals, or undefined if it is not one. */
function titledChoices(branches: unknown): Array<{ const: string; title: string }> | undefined {
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  const choices: Array<{ const: string; title: string }> = [];
  for (const branch of branches) {
    if (!isObject(branch) || typeof branch.const !== 'string') return undefined;
    if (branch.type !== undefined && branch.type !== 'string') return undefined;
    choices.push({ const: branch.const, title: typeof branch.title === 'string' ? branch.title : branch.const });
  }
  return choices;
}

/** One form property in the shape elicitation defines (see the module comment). */
export function formProperty(property: JsonObject): JsonObject {
  const single = titledChoices(property.anyOf ?? property.oneOf);
  if (single !== undefined) {
    const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = property;
    return { type: 'string', ...rest, oneOf: single };
  }
  if (property.type === 'array' && isObject(property.items)) {
    const multi = titledChoices(property.items.anyOf ?? property.items.oneOf);
    if (multi !== undefined) return { ...property, items: { anyOf: multi } };
  }
  return property;
}
