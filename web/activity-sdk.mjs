// The Activity's one import of the Embedded App SDK, bundled by esbuild (`npm run build
// --prefix web`) into bot/web/static/activity-sdk.js, which is committed: the bot's image
// serves it without Node. tests/browser/test_activity.py checks the committed bundle is
// what this build makes.
export { DiscordSDK } from "@discord/embedded-app-sdk";
