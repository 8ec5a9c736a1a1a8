// Applies the VS Code problem matcher of the task that docs/integrations.md gives to lines of
// planlint's text output, with JavaScript's RegExp, as VS Code does (its problemMatcher.ts
// builds each pattern with `new RegExp(regexp)`), so the test reads the docs' snippet as the
// editor would.
//
//   node problem_matcher.mjs docs/integrations.md < output.txt
//
// Prints one JSON object: the matcher's owner and regexp, and one problem for each matching
// line: its 0-based index in the input, and the groups the pattern's "file", "line", "column",
// "severity", "message" and "code" indices name.
import { readFileSync } from "node:fs";

const docs = readFileSync(process.argv[2], "utf8");
// The docs' .vscode/tasks.json, a jsonc block: its // comments dropped, it is JSON.
const block = [...docs.matchAll(/```jsonc\n([\s\S]*?)```/g)]
  .map((m) => m[1])
  .find((b) => b.includes("tasks.json"));
if (!block) throw new Error("no jsonc block of a tasks.json in " + process.argv[2]);
const tasks = JSON.parse(block.replace(/^\s*\/\/.*$/gm, ""));
const matcher = tasks.tasks.find((t) => t.label === "planlint").problemMatcher;
const pattern = matcher.pattern;
const regexp = new RegExp(pattern.regexp);

const input = readFileSync(0, "utf8");
const problems = [];
input.split("\n").forEach((text, index) => {
  const m = regexp.exec(text);
  if (!m) return;
  const group = (name) => (pattern[name] === undefined ? null : m[pattern[name]]);
  problems.push({
    index,
    file: group("file"),
    line: Number(group("line")),
    column: Number(group("column")),
    severity: group("severity"),
    message: group("message"),
    code: group("code"),
  });
});
process.stdout.write(JSON.stringify({ owner: matcher.owner, regexp: pattern.regexp, problems }) + "\n");
