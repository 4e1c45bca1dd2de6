// @rjsf/core's entry imports @rjsf/validator-ajv8 for a test helper (getTestRegistry) the app
// never calls. Ajv compiles code at run time, which the app's CSP forbids, so the package is not
// installed: vite.config.ts points that import here. Forms use tools/shapeValidator.ts.
export default {};
