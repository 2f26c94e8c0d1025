// agg serve's board page: /v1/premium, then each board /v1/stream pushes. Every number shown is
// the decimal string the JSON carries, formatted on its digits (never through a float); every
// text a venue provides is set with textContent, never parsed as HTML.
'use strict';

// Decimal strings ("-12.5", "80630000", "0.01897"), handled on their digits.
const Decimal = {
  parts(text) {
    const negative = text.startsWith('-');
    const body = negative || text.startsWith('+') ? text.slice(1) : text;
    const dot = body.indexOf('.');
    const whole = (dot < 0 ? body : body.slice(0, dot)).replace(/^0+(?=\d)/, '');
    const fraction = dot < 0 ? '' : body.slice(dot + 1);
    return { negative, whole, fraction };
  },
  isZero(text) { return !/[1-9]/.test(text); },
  sign(text) { return Decimal.isZero(text) ? 0 : text.startsWith('-') ? -1 : 1; },
  // Exact comparison of two decimal strings: sign, then the integer part's length, then digits.
  compare(a, b) {
    const sa = Decimal.sign(a), sb = Decimal.sign(b);
    if (sa !== sb) return sa < sb ? -1 : 1;
    if (sa === 0) return 0;
    const pa = Decimal.parts(a), pb = Decimal.parts(b);
    let order = 0;
    if (pa.whole.length !== pb.whole.length) order = pa.whole.length < pb.whole.length ? -1 : 1;
    else {
      const width = Math.max(pa.fraction.length, pb.fraction.length);
      const da = pa.whole + pa.fraction.padEnd(width, '0'), db = pb.whole + pb.fraction.padEnd(width, '0');
      order = da < db ? -1 : da > db ? 1 : 0;
    }
    return sa < 0 ? -order : order;
  },
  group(whole) { return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ','); },
  join(negative, whole, fraction) {
    const text = Decimal.group(whole) + (fraction.length ? '.' + fraction : '');
    return negative && /[1-9]/.test(whole + fraction) ? '-' + text : text;
  },
  // Rounded half away from zero to `places` decimals, padded to exactly that many.
  fixed(text, places) {
    const p = Decimal.parts(text);
    let digits = p.whole + p.fraction.padEnd(places + 1, '0');
    const cut = p.whole.length + places;
    const up = digits.charCodeAt(cut) >= 53;
    digits = digits.slice(0, cut);
    if (up) {
      const chars = digits.split('');
      let i = chars.length - 1;
      while (i >= 0 && chars[i] === '9') { chars[i] = '0'; i -= 1; }
      if (i < 0) chars.unshift('1'); else chars[i] = String.fromCharCode(chars[i].charCodeAt(0) + 1);
      digits = chars.join('');
    }
    const wholeLength = digits.length - places;
    return Decimal.join(p.negative, digits.slice(0, wholeLength) || '0', digits.slice(wholeLength));
  },
  // A price as the CLI's table shows it: grouped, every decimal the value has, at least `minor`.
  price(text, minor) {
    const p = Decimal.parts(text);
    return Decimal.join(p.negative, p.whole, p.fraction.padEnd(minor, '0'));
  },
  percent(text) {
    const fixed = Decimal.fixed(text, 2);
    return (Decimal.sign(fixed) > 0 ? '+' : '') + fixed + '%';
  },
};

const MINOR = { KRW: 0, JPY: 0, VND: 0, IDR: 0, CLP: 0, ISK: 0, HUF: 0, TWD: 0, BTC: 8, ETH: 8 };
const NUMERIC = new Set(['last', 'global', 'premium', 'usdtPremium', 'volume']);
const COLUMNS = ['coin', 'exchange', 'last', 'global', 'premium', 'usdtPremium', 'volume', 'transfer', 'note'];

const state = {
  token: null,
  board: null,
  rows: new Map(), // key -> row model
  trs: new Map(), // key -> { tr, cells, texts }
  sort: { key: null, direction: 1 },
  filter: '',
  flashed: new Set(),
  names: new Map(),
};

const $ = (id) => document.getElementById(id);

function readToken() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const given = fragment.get('token');
  if (given) {
    sessionStorage.setItem('agg-token', given);
    history.replaceState(null, '', location.pathname);
  }
  state.token = sessionStorage.getItem('agg-token');
}

function headers() {
  return state.token ? { Authorization: 'Bearer ' + state.token } : {};
}

function askToken() {
  const form = $('token-form');
  form.hidden = false;
  $('token-input').focus();
  setStatus('This server needs a token.');
}

function setStatus(text) { $('status').textContent = text; }

function ageText(seconds) {
  if (seconds < 60) return seconds + ' s';
  if (seconds < 3600) return Math.floor(seconds / 60) + ' min';
  return Math.floor(seconds / 3600) + ' h';
}

function minorOf(currency) { return Object.hasOwn(MINOR, currency) ? MINOR[currency] : 2; }

// The board's rows, one per coin and local venue, as the CLI's table lists them.
function rowsOf(board) {
  const rows = new Map();
  const asOf = Date.parse(board.asOf);
  for (const row of board.rows || []) {
    const notes = [];
    const flags = row.flags || [];
    if (flags.includes('noReference')) notes.push('no global price agrees');
    else if (flags.includes('priceMismatch')) {
      notes.push('outlier: ' + row.venues.filter((v) => v.outlier).map((v) => v.exchange).join(', '));
    }
    for (const venue of row.venues) {
      if (!venue.local) continue;
      rows.set(row.base + '\u0000' + venue.exchange, {
        coin: row.base, exchange: venue.exchange, last: venue.last,
        global: row.reference ? row.reference.price : null,
        premium: venue.premiumPercent, usdtPremium: venue.usdtPremiumPercent,
        volume: venue.volumeConverted, transfer: venue.transfer, note: notes.join('; '),
        seen: asOf, stale: false,
      });
    }
  }
  return rows;
}

function cellText(row, key, currency) {
  const value = row[key];
  switch (key) {
    case 'last': return Decimal.price(value, minorOf(currency));
    case 'global': case 'volume': return value === null || value === undefined ? '-' : Decimal.fixed(value, minorOf(currency));
    case 'premium': case 'usdtPremium': return value === null || value === undefined ? '-' : Decimal.percent(value);
    case 'note': return row.stale ? ['stale, ' + ageText(row.age) + ' old', value].filter(Boolean).join('; ') : value;
    default: return value === null || value === undefined ? '' : String(value);
  }
}

function apply(board) {
  if (board.error) { setStatus('The server could not make the board: ' + board.error.message); return; }
  const previous = state.rows;
  const next = rowsOf(board);
  const asOf = Date.parse(board.asOf);
  // A venue whose last request failed is left out of the board and named in its errors: its
  // last rows stay, greyed, with their age.
  const failed = new Set((board.errors || [])
    .filter((e) => e.exchange && !e.symbol && e.kind !== 'decoding' && e.kind !== 'notListed')
    .map((e) => e.exchange));
  for (const [key, row] of previous) {
    if (!next.has(key) && failed.has(row.exchange)) {
      next.set(key, { ...row, stale: true, age: Math.max(0, Math.round((asOf - row.seen) / 1000)) });
    }
  }
  state.rows = next;
  state.board = board;
  header(board);
  render();
  const errors = (board.errors || []).map((e) => (e.exchange ? e.exchange + ': ' : '') + e.message);
  $('errors').textContent = errors.length ? 'Errors: ' + errors.join(' · ') : '';
  setStatus('Updated ' + board.asOf);
}

function header(board) {
  const currency = board.currency;
  if (board.fx) {
    const age = Math.max(0, Math.round((Date.parse(board.asOf) - Date.parse(board.fx.asOf)) / 1000));
    $('fx').textContent = 'FX: USD→' + currency + ' ' + Decimal.price(board.fx.rate, minorOf(currency)) + ' from '
      + board.fx.source + ', as of ' + board.fx.asOf + ' (' + ageText(age) + ' ago)'
      + (board.fx.attribution ? '; ' + board.fx.attribution : '');
  } else {
    $('fx').textContent = 'FX: no rate';
  }
  if (board.usdtPremiumPercent !== null && board.usdtPremiumPercent !== undefined) {
    const venues = (board.tether || []).map((t) => t.exchange + ' ' + (t.premiumPercent === null ? '-' : Decimal.percent(t.premiumPercent)));
    $('tether').textContent = 'Tether premium: ' + Decimal.percent(board.usdtPremiumPercent)
      + ' (USDT/' + currency + ': ' + venues.join(', ') + ')';
  } else {
    $('tether').textContent = '';
  }
}

function compareRows(a, b, key) {
  const x = a[key], y = b[key];
  if (x === y) return 0;
  if (x === null || x === undefined) return 1;
  if (y === null || y === undefined) return -1;
  return NUMERIC.has(key) ? Decimal.compare(x, y) : x < y ? -1 : x > y ? 1 : 0;
}

function ordered() {
  const filter = state.filter.trim().toUpperCase();
  const rows = [...state.rows.entries()].filter(([, row]) => !filter || row.coin.includes(filter));
  const { key, direction } = state.sort;
  if (key) {
    rows.sort((a, b) => {
      const order = compareRows(a[1], b[1], key);
      if (order !== 0) return (a[1][key] === null || b[1][key] === null) ? order : order * direction;
      return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
    });
  }
  return rows;
}

// Whether two row models would show the same cells.
function sameRow(a, b) {
  if (!a || a.stale !== b.stale || (b.stale && a.age !== b.age)) return false;
  for (const column of COLUMNS) if (a[column] !== b[column]) return false;
  return true;
}

function render() {
  const currency = state.board ? state.board.currency : 'KRW';
  const keep = [];
  for (const [key, row] of ordered()) {
    let entry = state.trs.get(key);
    const fresh = !entry;
    if (fresh) {
      const tr = document.createElement('tr');
      const cells = COLUMNS.map((column) => {
        const td = document.createElement('td');
        if (NUMERIC.has(column)) td.className = 'num';
        tr.appendChild(td);
        return td;
      });
      entry = { tr, cells, texts: COLUMNS.map(() => null), row: null, currency };
      state.trs.set(key, entry);
    }
    keep.push(entry.tr);
    // Only the rows whose values changed are formatted and touched.
    if (entry.currency === currency && sameRow(entry.row, row)) continue;
    entry.row = row;
    entry.currency = currency;
    entry.tr.classList.toggle('stale', row.stale);
    COLUMNS.forEach((column, index) => {
      const text = cellText(row, column, currency);
      if (entry.texts[index] === text) return;
      const td = entry.cells[index];
      td.textContent = text;
      if (column === 'premium' || column === 'usdtPremium') {
        const sign = row[column] ? Decimal.sign(row[column]) : 0;
        td.classList.toggle('up', sign > 0);
        td.classList.toggle('down', sign < 0);
      }
      if (!fresh && entry.texts[index] !== null && column !== 'note') flash(td);
      entry.texts[index] = text;
    });
  }
  for (const key of state.trs.keys()) {
    if (!state.rows.has(key)) state.trs.delete(key);
  }
  // The rows are moved only when their order or number changed.
  const body = $('board').tBodies[0];
  const current = body.rows;
  let same = current.length === keep.length;
  for (let i = 0; same && i < keep.length; i += 1) same = current[i] === keep[i];
  if (!same) body.replaceChildren(...keep);
}

let flashTimer = null;
function flash(td) {
  td.classList.add('changed');
  state.flashed.add(td);
  clearTimeout(flashTimer);
  flashTimer = setTimeout(() => {
    for (const cell of state.flashed) cell.classList.remove('changed');
    state.flashed.clear();
  }, 1500);
}

function sortBy(key) {
  const same = state.sort.key === key;
  state.sort = { key, direction: same ? -state.sort.direction : (NUMERIC.has(key) ? -1 : 1) };
  for (const th of document.querySelectorAll('th[data-key]')) {
    th.setAttribute('aria-sort', th.dataset.key !== key ? 'none' : state.sort.direction > 0 ? 'ascending' : 'descending');
  }
  render();
}

async function fetchJSON(path) {
  const response = await fetch(path, { headers: headers() });
  if (response.status === 401) { askToken(); return null; }
  if (!response.ok) throw new Error(path + ': HTTP ' + response.status);
  return response.json();
}

async function loadVenues() {
  const venues = await fetchJSON('/v1/exchanges');
  if (!venues) return;
  const list = Array.isArray(venues) ? venues : venues.exchanges || [];
  $('venues').textContent = 'Venues: ' + list.map((v) => v.id + ' (' + v.name + ')').join(', ');
}

function parseEvent(block) {
  let event = 'message';
  const data = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (event === 'board' && data.length) apply(JSON.parse(data.join('\n')));
}

// /v1/stream read with fetch (not EventSource), so that the bearer token goes in a header.
async function stream() {
  for (;;) {
    try {
      const response = await fetch('/v1/stream', { headers: headers(), cache: 'no-store' });
      if (response.status === 401) { askToken(); return; }
      if (!response.ok) throw new Error('stream: HTTP ' + response.status);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer = (buffer + value).replace(/\r\n/g, '\n');
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          parseEvent(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
      setStatus('The stream ended; reconnecting…');
    } catch (error) {
      setStatus('The stream was interrupted; reconnecting… (' + error.message + ')');
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function start() {
  try {
    const board = await fetchJSON('/v1/premium');
    if (!board) return;
    apply(board);
    await loadVenues();
  } catch (error) {
    setStatus('Could not load the board: ' + error.message);
  }
  stream();
}

document.addEventListener('DOMContentLoaded', () => {
  readToken();
  for (const th of document.querySelectorAll('th[data-key]')) {
    th.querySelector('button').addEventListener('click', () => sortBy(th.dataset.key));
  }
  $('filter').addEventListener('input', (event) => { state.filter = event.target.value; render(); });
  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    state.token = $('token-input').value;
    sessionStorage.setItem('agg-token', state.token);
    $('token-form').hidden = true;
    start();
  });
  start();
});
