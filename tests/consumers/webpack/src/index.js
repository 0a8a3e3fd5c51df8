import { start } from "../app.js";

start("webpack");
