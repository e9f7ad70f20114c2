// An honest bot in JavaScript for Node (docs/protocol.md, section 6): a random legal option.
// Used by tests/tournament/test_sandbox_runtimes.py to show that Node starts and plays under the
// sandbox's default limits.
"use strict";
const readline = require("readline");

function say(text) {
  process.stdout.write(text + "\n");
}

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (raw) => {
  const words = raw.replace(/\r$/, "").split(" ");
  switch (words[0]) {
    case "trickcore":
      say("id name node-random\nid author trickcore tests\ntrickcoreok 1");
      break;
    case "isready":
      say("readyok " + words[1]);
      break;
    case "request": {
      const request = JSON.parse(words.slice(3).join(" "));
      const legal = request.legal;
      say("action " + words[1] + " " + legal[Math.floor(Math.random() * legal.length)]);
      break;
    }
    case "quit":
      process.exit(0);
      break;
    default:
      break;
  }
});
