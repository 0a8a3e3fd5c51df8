// Without the recipe: the client must fail with the message the README documents.
import { start } from "../app.js";

start("esbuild");
