// charts.mjs — small dependency-free SVG charts of a results object:
//   latency-vs-size.svg    query p50 vs catalog size (log-log), one line per engine
//   build-vs-size.svg      build time vs catalog size (log-log)
//   relevance-vs-latency.svg  mean nDCG@10 over the relevance sets vs query p50 on 10k
import { writeFileSync } from 'node:fs';

const COLORS = { toolsift: '#d62728', minisearch: '#1f77b4', orama: '#9467bd', flexsearch: '#2ca02c', lunr: '#ff7f0e', 'wink-bm25': '#8c564b', 'fuse.js': '#7f7f7f' };
const W = 640, H = 400, L = 70, R = 150, T = 40, B = 50;
const esc = (s) => String(s).replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);
const fmt = (v) => (v >= 100 ? v.toFixed(0) : v >= 1 ? v.toFixed(1) : v >= 0.01 ? v.toFixed(2) : v.toPrecision(1));

function axes(title, xlab, ylab) {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="22" text-anchor="middle" font-size="14" font-weight="bold">${esc(title)}</text>`,
    `<text x="${L + (W - L - R) / 2}" y="${H - 10}" text-anchor="middle">${esc(xlab)}</text>`,
    `<text x="16" y="${T + (H - T - B) / 2}" text-anchor="middle" transform="rotate(-90 16 ${T + (H - T - B) / 2})">${esc(ylab)}</text>`,
    `<rect x="${L}" y="${T}" width="${W - L - R}" height="${H - T - B}" fill="none" stroke="#999"/>`,
  ];
}

function scale(lo, hi, a, b, log) {
  if (log) {
    const l0 = Math.log10(lo), l1 = Math.log10(hi);
    return (v) => a + ((Math.log10(v) - l0) / (l1 - l0 || 1)) * (b - a);
  }
  return (v) => a + ((v - lo) / (hi - lo || 1)) * (b - a);
}

function logTicks(lo, hi) {
  const out = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++)
    for (const m of [1, 3]) {
      const v = m * 10 ** e;
      if (v >= lo && v <= hi) out.push(v);
    }
  return out;
}

function lineChart(series, title, ylab) {
  const pts = series.flatMap((s) => s.points);
  if (!pts.length) return null;
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]).filter((y) => y > 0);
  const x0 = Math.min(...xs) / 1.3, x1 = Math.max(...xs) * 1.3;
  const y0 = Math.min(...ys) / 2, y1 = Math.max(...ys) * 2;
  const sx = scale(x0, x1, L, W - R, true), sy = scale(y0, y1, H - B, T, true);
  const out = axes(title, 'catalog size (tools, log)', ylab);
  for (const v of logTicks(y0, y1)) out.push(`<line x1="${L}" x2="${W - R}" y1="${sy(v)}" y2="${sy(v)}" stroke="#eee"/><text x="${L - 6}" y="${sy(v) + 4}" text-anchor="end">${fmt(v)}</text>`);
  for (const v of [...new Set(xs)]) out.push(`<text x="${sx(v)}" y="${H - B + 16}" text-anchor="middle">${v >= 1000 ? `${+(v / 1000).toFixed(1)}k` : v}</text>`);
  series.forEach((s, i) => {
    const c = COLORS[s.name] ?? '#000';
    const p = s.points.filter((q) => q[1] > 0).map((q) => `${sx(q[0]).toFixed(1)},${sy(q[1]).toFixed(1)}`);
    if (p.length > 1) out.push(`<polyline points="${p.join(' ')}" fill="none" stroke="${c}" stroke-width="${s.name === 'toolsift' ? 3 : 1.5}"/>`);
    for (const q of p) out.push(`<circle cx="${q.split(',')[0]}" cy="${q.split(',')[1]}" r="3" fill="${c}"/>`);
    out.push(`<rect x="${W - R + 12}" y="${T + i * 18}" width="12" height="12" fill="${c}"/><text x="${W - R + 30}" y="${T + i * 18 + 10}">${esc(s.name)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}

export function writeCharts(results, outDir) {
  const sizes = Object.entries(results.catalogs).filter(([k, v]) => k.startsWith('synth-') && v.engines);
  const names = Object.keys(results.engines);
  const series = (pick) => names.map((name) => ({
    name,
    points: sizes.map(([, v]) => [v.tools, pick(v.engines[name])]).filter((p) => p[1] != null && Number.isFinite(p[1])),
  })).filter((s) => s.points.length);
  const lat = lineChart(series((e) => e?.queryMs?.p50), 'Query latency p50 vs catalog size (synthetic)', 'p50 per query (ms, log)');
  if (lat) writeFileSync(new URL('latency-vs-size.svg', outDir), lat);
  const build = lineChart(series((e) => e?.buildMs?.median), 'Index build time vs catalog size (synthetic)', 'build (ms, log)');
  if (build) writeFileSync(new URL('build-vs-size.svg', outDir), build);

  // relevance vs latency: mean nDCG@10 over the sets each engine ran on, p50 on 10k (else the largest catalog run)
  const ref = results.catalogs['synth-10000']?.engines ? results.catalogs['synth-10000'] : sizes.at(-1)?.[1];
  const sets = Object.values(results.relevance);
  if (!ref || !sets.length) return;
  const pts = names.map((name) => {
    const v = sets.map((s) => s.engines[name]?.ndcg10).filter((x) => x !== undefined);
    const p50 = ref.engines[name]?.queryMs?.p50;
    return v.length === sets.length && p50 ? { name, x: p50, y: v.reduce((a, b) => a + b, 0) / v.length } : null;
  }).filter(Boolean);
  if (!pts.length) return;
  const x0 = Math.min(...pts.map((p) => p.x)) / 2, x1 = Math.max(...pts.map((p) => p.x)) * 2;
  const yv = pts.map((p) => p.y);
  const y0 = Math.max(0, Math.min(...yv) - 0.05), y1 = Math.min(1, Math.max(...yv) + 0.05);
  const sx = scale(x0, x1, L, W - R, true), sy = scale(y0, y1, H - B, T, false);
  const out = axes(`Relevance vs latency (p50 on ${ref.label}; nDCG@10 mean of ${sets.length} sets)`, 'query p50 (ms, log) — left is faster', 'mean nDCG@10 — up is better');
  for (const v of logTicks(x0, x1)) out.push(`<line x1="${sx(v)}" x2="${sx(v)}" y1="${T}" y2="${H - B}" stroke="#eee"/><text x="${sx(v)}" y="${H - B + 16}" text-anchor="middle">${fmt(v)}</text>`);
  for (let i = 0; i <= 5; i++) {
    const v = y0 + ((y1 - y0) * i) / 5;
    out.push(`<line x1="${L}" x2="${W - R}" y1="${sy(v)}" y2="${sy(v)}" stroke="#eee"/><text x="${L - 6}" y="${sy(v) + 4}" text-anchor="end">${v.toFixed(2)}</text>`);
  }
  pts.forEach((p, i) => {
    const c = COLORS[p.name] ?? '#000';
    out.push(`<circle cx="${sx(p.x)}" cy="${sy(p.y)}" r="${p.name === 'toolsift' ? 7 : 5}" fill="${c}"/><text x="${sx(p.x) + 9}" y="${sy(p.y) + 4}">${esc(p.name)}</text>`);
    out.push(`<rect x="${W - R + 12}" y="${T + i * 18}" width="12" height="12" fill="${c}"/><text x="${W - R + 30}" y="${T + i * 18 + 10}">${esc(p.name)}</text>`);
  });
  out.push('</svg>');
  writeFileSync(new URL('relevance-vs-latency.svg', outDir), out.join('\n'));
}
