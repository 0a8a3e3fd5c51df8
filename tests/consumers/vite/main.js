import { start } from "./app.js";

start("vite");
