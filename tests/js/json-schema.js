// A small JSON Schema validator: the keywords the compiled calculator model's schema uses.
// tests/json_schema.py is the same for pytest, so both runners check the models they run against
// the compiled model's schema, which the vectors carry. A keyword it does not know fails loudly.
"use strict";

const SUPPORTED = new Set([
  "$schema", "$id", "$ref", "$defs", "title", "description", "type", "properties", "required",
  "additionalProperties", "items", "prefixItems", "minItems", "maxItems", "enum", "const",
  "oneOf", "pattern", "minimum", "maximum", "maxLength",
]);

const TYPES = {
  object: (v) => v !== null && typeof v === "object" && !Array.isArray(v),
  array: (v) => Array.isArray(v),
  string: (v) => typeof v === "string",
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === "boolean",
  null: (v) => v === null,
};

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const plain = (schema) => schema && ("const" in schema || "enum" in schema);

// Every way `value` breaks `schema` ([] when it fits), each with its JSON path.
function errors(value, schema, root = schema, path = "$") {
  return check(value, schema, root, path, false);
}

// Whether `value` fits: stops at the first problem (oneOf asks this of each choice; finding every
// problem of every choice of every nested formula would take exponential time).
function fits(value, schema, root) {
  return check(value, schema, root, "$", true).length === 0;
}

function check(value, schema, root, path, first) {
  if (schema === false) return [`${path}: not allowed here`];
  if (schema === true) return [];
  const unknown = Object.keys(schema).filter((k) => !SUPPORTED.has(k));
  if (unknown.length) throw new Error(`schema keyword(s) not supported by this checker: ${unknown}`);
  if (schema.$ref) {
    const target = schema.$ref.replace(/^#\//, "").split("/").reduce((node, part) => node[part], root);
    return check(value, target, root, path, first);
  }
  const found = [];
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => TYPES[t](value))) return [`${path}: expected ${types.join(" or ")}`];
  }
  if ("const" in schema && !same(value, schema.const)) found.push(`${path}: expected ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.some((option) => same(value, option))) found.push(`${path}: expected one of ${JSON.stringify(schema.enum)}`);
  if (typeof value === "string") {
    if (schema.pattern && !new RegExp(schema.pattern, "u").test(value)) found.push(`${path}: does not match ${schema.pattern}`);
    if (schema.maxLength !== undefined && [...value].length > schema.maxLength) found.push(`${path}: longer than ${schema.maxLength}`);
  }
  if (Number.isInteger(value)) {
    if (schema.minimum !== undefined && value < schema.minimum) found.push(`${path}: below ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) found.push(`${path}: above ${schema.maximum}`);
  }
  if (found.length && first) return found;
  if (TYPES.object(value)) {
    for (const key of schema.required || []) if (!(key in value)) found.push(`${path}: missing "${key}"`);
    const properties = schema.properties || {};
    const has = (key) => Object.prototype.hasOwnProperty.call(properties, key);
    // Plain keys (a kind, an operator) before nested ones: a wrong choice fails fast.
    const keys = Object.keys(value).sort((a, b) => (plain(properties[b]) ? 1 : 0) - (plain(properties[a]) ? 1 : 0));
    for (const key of keys) {
      if (found.length && first) break;
      if (has(key)) found.push(...check(value[key], properties[key], root, `${path}.${key}`, first));
      else if (schema.additionalProperties === false) found.push(`${path}: unexpected key "${key}"`);
    }
  }
  if (Array.isArray(value)) {
    if (value.length < (schema.minItems || 0)) found.push(`${path}: fewer than ${schema.minItems} items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems) found.push(`${path}: more than ${schema.maxItems} items`);
    const prefix = schema.prefixItems || [];
    for (let i = 0; i < value.length && !(found.length && first); i++) {
      const itemSchema = i < prefix.length ? prefix[i] : (schema.items === undefined ? true : schema.items);
      found.push(...check(value[i], itemSchema, root, `${path}[${i}]`, first));
    }
  }
  if (schema.oneOf && !(found.length && first)) {
    const count = schema.oneOf.filter((option) => fits(value, option, root)).length;
    if (count !== 1) found.push(`${path}: fits ${count} of the oneOf choices, not exactly 1`);
  }
  return found;
}

module.exports = { errors };
