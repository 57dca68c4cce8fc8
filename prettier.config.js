// The style the code is written in: single quotes, semicolons, trailing commas,
// long lines (99% of lines are under 180 characters, so 200 rewraps few).
/** @type {import('prettier').Config} */
export default {
  printWidth: 200,
  singleQuote: true,
  trailingComma: 'all',
  arrowParens: 'always',
  overrides: [
    // YAML as upstream writes it (compose files): double quotes.
    { files: ['*.yaml', '*.yml'], options: { singleQuote: false } },
  ],
};
