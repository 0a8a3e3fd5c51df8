/** StrictMode on (Next's default for the app router, set here because the dev check relies on it). */
export default { reactStrictMode: true };
