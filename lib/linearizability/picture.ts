/**
 * The picture of a history: one self-contained HTML file (no network, no library), after
 * Porcupine's visualization. One lane per process; each operation a bar from its call to
 * its return (an `info` bar is dashed, with a dotted tail to the end: it stays open); on
 * `illegal`, the longest linearizable prefix is marked (each bar numbered by its place in
 * it), the operation that cannot be placed is red, and with a partitioned model the other
 * parts' operations are faded. Hovering a bar shows its values: the operation in the
 * model's words, input, output, outcome, stamps, and the model's state after it when it is
 * in the prefix.
 *
 * Representation. The page holds the data as JSON in a `<script type="application/json">`
 * (every `<` escaped, so no value can end the script) and a script that draws from it: the
 * bars are exactly the history's operations, `.op` elements with `data-index`. The time
 * axis is by rank: each distinct stamp gets the same width, so a history of line numbers
 * and one of milliseconds read alike and nothing is too thin to hover.
 */
import { TimingWheelError, show } from '../errors.js'
import type { CheckResult } from './check.js'
import { fromOperations, type History } from './history.js'
import { type Model, complete } from './model.js'

/**
 * What a picture says besides the history.
 *
 * @example
 * const options: PictureOptions = { title: 'etcd 000', notes: ['partition n1 <-> n2 at 300 ms'] }
 * writeFileSync('history.html', picture(history, casRegister(), checkLinearizable(history, casRegister()), options))
 */
export interface PictureOptions {
  /** The page's title; default "Linearizability". */
  readonly title?: string
  /** Lines shown above the lanes, such as the fault schedule in words. */
  readonly notes?: readonly string[]
}

const json = (value: unknown): string => JSON.stringify(value ?? null) ?? 'null'

/**
 * A self-contained HTML page drawing `history` as checked by `checkLinearizable` with
 * `model` (`result`, to mark the prefix and the failing operation).
 *
 * @example
 * import { writeFileSync } from 'node:fs'
 * const result = checkLinearizable(history, casRegister())
 * writeFileSync('history.html', picture(history, casRegister(), result, { title: 'etcd 000' }))
 */
export const picture = <S, I, O>(history: History<I, O>, model: Model<S, I, O>, result: CheckResult, options: PictureOptions = {}): string => {
  fromOperations(history)
  const m = complete(model)
  if (typeof result !== 'object' || result === null || !['ok', 'illegal', 'unknown'].includes(result.kind)) {
    throw new TimingWheelError('InvalidArgument', `result must be what checkLinearizable returned, got ${show(result)}`)
  }
  const failure = result.kind === 'illegal' ? result.failures[0] : undefined
  // Each operation's place in the failing part's longest prefix, or in its part's linearization.
  const place = new Map<number, number>()
  failure?.prefix.forEach((i, k) => place.set(i, k))
  if (result.kind === 'ok') for (const order of result.linearization) order.forEach((i, k) => place.set(i, k))
  const stamps = [...new Set(history.flatMap((op) => (op.return === undefined ? [op.call] : [op.call, op.return])))].sort((a, b) => a - b)
  const rank = new Map(stamps.map((t, k) => [t, k]))
  // With a partitioned model, the failing part's operations stand out; the others are faded.
  const elsewhere = new Set<number>()
  if (failure !== undefined && m.partition !== undefined) {
    const at = new Map(history.map((op, i) => [op, i]))
    for (const part of m.partition(history)) if (!part.includes(history[failure.failing]!)) for (const op of part) elsewhere.add(at.get(op)!)
  }
  const data = {
    title: options.title ?? 'Linearizability',
    verdict: result.kind,
    words: result.kind === 'illegal' ? result.failures.map((f) => f.words) : result.kind === 'unknown' ? [result.reason] : ['a linearization exists'],
    notes: options.notes ?? [],
    processes: [...new Set(history.map((op) => op.process))].sort((a, b) => (typeof a === typeof b ? (a < b ? -1 : a > b ? 1 : 0) : typeof a === 'number' ? -1 : 1)),
    stamps: stamps.length,
    ops: history.map((op, i) => ({
      process: op.process,
      from: rank.get(op.call)!,
      to: op.return === undefined ? rank.get(op.call)! : rank.get(op.return)!,
      open: op.outcome === 'info',
      elsewhere: elsewhere.has(i),
      call: op.call,
      return: op.return ?? null,
      outcome: op.outcome,
      words: m.describe(op.input, op.output, op.outcome),
      input: json(op.input),
      output: op.outcome === 'info' ? 'unknown' : json(op.output),
      place: place.get(i) ?? null,
      state: failure !== undefined && place.has(i) ? failure.states[place.get(i)!] ?? null : null,
      failing: failure?.failing === i,
    })),
  }
  const payload = JSON.stringify(data).replace(/</g, '\\u003c')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(data.title)}</title>
<style>
body{font:13px/1.4 system-ui,sans-serif;margin:16px;color:#222}
h1{font-size:18px;margin:0 0 6px}
.verdict-ok{color:#17702a}.verdict-illegal{color:#b00020}.verdict-unknown{color:#8a6d00}
.words{margin:2px 0;max-width:1100px}
#chart{position:relative;overflow-x:auto;border:1px solid #ddd;margin-top:10px}
.lane{position:absolute;left:0;height:26px;border-bottom:1px solid #f0f0f0}
.label{position:sticky;left:0;display:inline-block;width:70px;padding:5px 4px;background:#fafafa;font-weight:600;z-index:2}
.op{position:absolute;height:18px;top:4px;border-radius:3px;background:#9db7d6;border:1px solid #58799e;box-sizing:border-box;font-size:11px;overflow:hidden;white-space:nowrap;padding:0 3px;cursor:default}
.op.fail{background:#e4e4e4;border-color:#999}
.op.info{background:repeating-linear-gradient(45deg,#f3e6b5,#f3e6b5 6px,#fff 6px,#fff 10px);border:1px dashed #a08a2a}
.tail{position:absolute;height:0;border-top:2px dotted #a08a2a;pointer-events:none}
.op.elsewhere{opacity:.35}
.op.linearized{background:#8fd19e;border-color:#2f7d43}
.op.failing{background:#ff6b6b;border:2px solid #8b0000;z-index:3}
.op:hover{outline:2px solid #000}
#tip{position:fixed;display:none;background:#fff;border:1px solid #888;box-shadow:0 2px 8px rgba(0,0,0,.25);padding:6px 8px;max-width:520px;white-space:pre-wrap;font:12px/1.4 ui-monospace,monospace;z-index:10;pointer-events:none}
.legend span{display:inline-block;padding:0 6px;margin-right:6px;border-radius:3px}
</style></head><body>
<h1 id="title"></h1>
<div id="summary"></div>
<div class="legend"><span class="op-key" style="background:#8fd19e">in the longest linearizable prefix (numbered)</span><span style="background:#ff6b6b">cannot be placed</span><span style="background:#9db7d6">other</span><span style="background:#f3e6b5">info: open to the end</span><span style="background:#e4e4e4">fail</span></div>
<div id="chart"></div>
<div id="tip"></div>
<script type="application/json" id="data">${payload}</script>
<script>
(function () {
  var data = JSON.parse(document.getElementById('data').textContent);
  var UNIT = 26, LANE = 26, LEFT = 80;
  document.getElementById('title').textContent = data.title;
  document.querySelector('.op-key').textContent = data.verdict === 'ok' ? 'linearized (numbered in order)' : 'in the longest linearizable prefix (numbered)';
  var summary = document.getElementById('summary');
  var verdict = document.createElement('div');
  verdict.className = 'verdict-' + data.verdict;
  verdict.textContent = data.verdict === 'ok' ? 'linearizable' : data.verdict === 'illegal' ? 'not linearizable' : 'unknown';
  summary.appendChild(verdict);
  data.words.concat(data.notes).forEach(function (w) {
    var p = document.createElement('div'); p.className = 'words'; p.textContent = w; summary.appendChild(p);
  });
  var chart = document.getElementById('chart');
  chart.style.height = (data.processes.length * LANE + 4) + 'px';
  var width = LEFT + (data.stamps + 1) * UNIT;
  var laneOf = {};
  data.processes.forEach(function (p, k) {
    laneOf[typeof p + ':' + p] = k;
    var lane = document.createElement('div');
    lane.className = 'lane'; lane.style.top = (k * LANE) + 'px'; lane.style.width = width + 'px';
    var label = document.createElement('span'); label.className = 'label'; label.textContent = String(p);
    lane.appendChild(label); chart.appendChild(lane);
  });
  var tip = document.getElementById('tip');
  data.ops.forEach(function (op, i) {
    var bar = document.createElement('div');
    bar.className = 'op ' + op.outcome + (op.place !== null ? ' linearized' : '') + (op.failing ? ' failing' : '') + (op.elsewhere ? ' elsewhere' : '');
    bar.dataset.index = String(i);
    bar.style.left = (LEFT + op.from * UNIT) + 'px';
    bar.style.width = Math.max(8, (op.to - op.from) * UNIT + UNIT / 2) + 'px';
    var top = laneOf[typeof op.process + ':' + op.process] * LANE + 4;
    bar.style.top = top + 'px';
    if (op.open) {
      // Open to the end: a dotted tail from when the client gave up, low in the lane, so that
      // the process's later operations stay readable.
      var tail = document.createElement('div');
      tail.className = 'tail';
      tail.style.left = (LEFT + op.to * UNIT + UNIT / 2) + 'px';
      tail.style.top = (top + 19) + 'px';
      tail.style.width = Math.max(0, (data.stamps - op.to) * UNIT) + 'px';
      chart.appendChild(tail);
    }
    bar.textContent = (op.place !== null ? (op.place + 1) + '. ' : '') + op.words;
    bar.addEventListener('mouseenter', function (e) {
      tip.textContent = op.words + '\\nprocess ' + op.process + ', ' + op.outcome + ', called at ' + op.call +
        (op.outcome === 'info' ? ', open to the end' : ', returned at ' + op['return']) +
        '\\ninput: ' + op.input + '\\noutput: ' + op.output +
        (op.place !== null ? '\\nplace ' + (op.place + 1) + (data.verdict === 'ok' ? ' in the linearization of its part' : ' in the longest linearizable prefix; state after: ' + op.state) : '') +
        (op.failing ? '\\ncannot be placed after that prefix' : '');
      tip.style.display = 'block';
      tip.style.left = Math.min(e.clientX + 12, window.innerWidth - 540) + 'px';
      tip.style.top = (e.clientY + 12) + 'px';
    });
    bar.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
    chart.appendChild(bar);
  });
})();
</script>
</body></html>
`
}

const escape = (s: string): string => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)
