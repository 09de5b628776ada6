/*
  The k-NN player's mirrored functions (assets/knn_player.html: METRICS, WEIGHTS, distance,
  voteOne) asked the questions the Python answered, the same way under node and in Chromium.
  Each job takes the player's module m and JSON arguments and returns JSON.

  Under node: `node tests/knn_mirror.mjs <the player module's file URL>` reads one job from stdin,
  [name, ...args], and prints its answer (tests/test_player_mirror_node.py). In Chromium the page
  imports `jobs` beside the module (tests/browser/test_player_knn_mirror.py).
*/

export const jobs = {
  // The names of the player's tables: [metrics, weightings].
  tables: (m) => [Object.keys(m.METRICS), Object.keys(m.WEIGHTS)],

  // The distance between every two points of X, the metric given as the player's header gives it.
  distances: (m, X, D) => X.map((a) => X.map((b) => m.distance(a, b, D))),

  // Each row's vote for k = 1 … width (rows of labels with their distances, nearest first, as the
  // player's neighbour table holds them; float32: the table the page sends): [winner, tied, shares].
  votes: (m, labels, dists, width, D, float32, classes) => {
    const table = float32 ? new Float32Array(dists) : dists, scores = new Float64Array(classes);
    const out = [];
    for (let row = 0; row < labels.length / width; row++) {
      for (let k = 1; k <= width; k++) {
        const { winner, tied } = m.voteOne(labels, table, row * width, k, D, scores);
        const total = scores.reduce((a, b) => a + b, 0);
        out.push([winner, tied, [...scores].map((s) => s / total)]);
      }
    }
    return out;
  },
};

if (typeof window === "undefined" && typeof process !== "undefined") {  // node, not the page
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  const [name, ...args] = JSON.parse(text);
  const m = await import(process.argv[2]);
  if (!(name in jobs)) throw new Error(`no job named ${name}`);
  process.stdout.write(JSON.stringify(jobs[name](m, ...args)));
}
