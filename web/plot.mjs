// plot.mjs: scripts/plot's work (docs/plots.md): draws a chart coalprobe wrote (--format
// vega-lite) as OUT_PREFIX.svg and OUT_PREFIX.png. A JSON report is first turned into its chart
// by `coalprobe show REPORT --format vega-lite`, so that every chart comes from the one
// definition in coalprobe. Exit status: 0 drawn; 1 an image or the report's chart cannot be
// written or made; 2 usage, or the input is neither a chart nor a report.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chartPng, chartSvg, chartView } from './chart.mjs';

const USAGE = `usage: scripts/plot CHART.vl.json|REPORT.json|- [-o OUT_PREFIX]

Draws a Vega-Lite chart written by coalprobe (--format vega-lite, sweeps and trace) as
OUT_PREFIX.svg and OUT_PREFIX.png (default prefix: the input's name less .json and .vl).
A coalprobe JSON report is drawn through \`coalprobe show REPORT --format vega-lite\`
(COALPROBE names the binary; default build/coalprobe, else coalprobe on PATH).
- reads standard input (then -o is needed). docs/plots.md has more.`;

class PlotError extends Error {
  constructor(message, code) { super(message); this.code = code; }
}

function parseArgs(argv) {
  const args = { input: null, prefix: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') { console.log(USAGE); process.exit(0); }
    if (a === '-o' || a === '--output') {
      if (i + 1 >= argv.length) throw new PlotError(`${a} needs OUT_PREFIX`, 2);
      args.prefix = argv[++i];
    } else if (a.startsWith('-') && a !== '-') {
      throw new PlotError(`unknown option ${a}`, 2);
    } else if (args.input === null) {
      args.input = a;
    } else {
      throw new PlotError(`one input only (${args.input}, then ${a})`, 2);
    }
  }
  if (args.input === null) throw new PlotError('no input: give a chart or a report', 2);
  if (args.input === '-' && !args.prefix) throw new PlotError('reading standard input needs -o OUT_PREFIX', 2);
  return args;
}

function readJson(input) {
  let text;
  try {
    text = fs.readFileSync(input === '-' ? 0 : input, 'utf8');
  } catch (e) {
    throw new PlotError(`cannot read ${input}: ${e.message}`, 1);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new PlotError(`${input} is not JSON: ${e.message}`, 2);
  }
}

// The coalprobe to ask for a report's chart: $COALPROBE, build/coalprobe, or the one on PATH.
function coalprobe() {
  if (process.env.COALPROBE) return process.env.COALPROBE;
  const built = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'build', 'coalprobe');
  return fs.existsSync(built) ? built : 'coalprobe';
}

// The chart of the input: itself when it is a Vega-Lite spec, a report's through coalprobe.
function toChart(doc, input) {
  if (doc && typeof doc.$schema === 'string' && doc.$schema.includes('vega-lite')) return doc;
  if (doc && doc.error && typeof doc.error === 'object') {
    throw new PlotError(`${input} is an error document, not a report: ${doc.error.message}`, 2);
  }
  const isReport = doc && (Array.isArray(doc.rows) || doc.kind === 'trace');
  if (!isReport) {
    throw new PlotError(`${input} is neither a Vega-Lite chart nor a coalprobe report`, 2);
  }
  if (input === '-') {
    throw new PlotError('a report on standard input cannot be passed to coalprobe show: '
                        + 'give its file, or pipe the chart (--format vega-lite)', 2);
  }
  const bin = coalprobe();
  try {
    return JSON.parse(execFileSync(bin, ['show', input, '--format', 'vega-lite'],
                                   { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
                                     maxBuffer: 1 << 30 }));
  } catch (e) {
    const why = (e.stderr || e.message || '').toString().trim().split('\n')[0];
    throw new PlotError(`cannot make the chart of ${input} with \`${bin} show\`: ${why}\n`
                        + 'hint: write the chart where the report is made (coalprobe ... '
                        + '--format vega-lite) and plot that', 1);
  }
}

function defaultPrefix(input) {
  return input.replace(/\.json$/, '').replace(/\.vl$/, '');
}

function write(file, data) {
  try {
    fs.writeFileSync(file, data);
  } catch (e) {
    throw new PlotError(`cannot write ${file}: ${e.message}`, 1);
  }
  console.log(file);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const input = args.input;
  const spec = toChart(readJson(input), input);
  const prefix = args.prefix || defaultPrefix(input);
  let drawn;
  try {
    drawn = await chartView(spec);
  } catch (e) {
    throw new PlotError(`${input}: the chart cannot be drawn: ${e.message}`, 2);
  }
  for (const w of drawn.warnings) console.error(`plot: warning: ${w}`);
  const svg = await chartSvg(drawn.view);
  write(`${prefix}.svg`, svg);
  const { png, why } = await chartPng(svg);
  if (png) write(`${prefix}.png`, png);
  else console.error(`plot: no PNG: ${why} (cd web && npm ci installs it)`);
}

main().catch((e) => {
  console.error(`plot: ${e.message}`);
  process.exit(e instanceof PlotError ? e.code : 1);
});
