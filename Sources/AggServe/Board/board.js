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
const SIGNED = new Set(['premium', 'usdtPremium']);

// Every text the page shows, in English and Korean. Functions take the values they name.
const LABELS = {
  en: {
    title: 'agg premium board', waiting: 'Waiting for the first board…', settings: 'Display settings',
    themeDark: 'Dark theme', paletteStandard: 'Standard colours (green up)', otherLanguage: '한국어',
    tokenAsk: 'This server needs its bearer token:', connect: 'Connect', filter: 'Filter coins',
    venuesShown: 'Venues shown', range24h: '24 h', range7d: '7 d', close: 'Close',
    coin: 'Coin', exchange: 'Exchange', last: 'Last (KRW)', global: 'Global (KRW)', premium: 'Premium',
    usdtPremium: 'USDT prem', volume: 'Volume 24h', transfer: 'Transfer', note: 'Note',
    open: 'open', closed: 'closed', unknown: 'unknown',
    seconds: (n) => n + ' s', minutes: (n) => n + ' min', hours: (n) => n + ' h',
    needToken: 'This server needs a token.', cannotMake: (m) => 'The server could not make the board: ' + m,
    updated: (t) => 'Updated ' + t, errors: (list) => 'Errors: ' + list, venues: (list) => 'Venues: ' + list,
    fx: (c, rate, source, asOf, age) => 'FX: USD→' + c + ' ' + rate + ' from ' + source + ', as of ' + asOf + ' (' + age + ' ago)',
    noFx: 'FX: no rate',
    tether: (p, c, list) => 'Tether premium: ' + p + ' (USDT/' + c + ': ' + list + ')',
    stale: (age) => 'stale, ' + age + ' old', noReference: 'no global price agrees', outlier: (list) => 'outlier: ' + list,
    streamEnded: 'The stream ended; reconnecting…', streamBroken: (m) => 'The stream was interrupted; reconnecting… (' + m + ')',
    cannotLoad: (m) => 'Could not load the board: ' + m,
    detail: (coin) => coin + ': recorded premium', loading: 'Loading the history…', noStore: 'This server has no history store.',
    noPoints: (coin, since) => 'No premium of ' + coin + ' recorded since ' + since + '.',
    summary: (n, since, latest, venue, low, high) => n + ' premiums since ' + since + '; latest ' + latest + ' (' + venue
      + '); band: 10th to 90th percentile, ' + low + ' to ' + high,
    historyFailed: (m) => 'Could not load the history: ' + m,
  },
  ko: {
    title: 'agg 김치 프리미엄 시세판', waiting: '첫 시세를 기다리는 중…', settings: '화면 설정',
    themeDark: '어두운 테마', paletteStandard: '표준 색상 (상승 초록)', otherLanguage: 'English',
    tokenAsk: '이 서버는 베어러 토큰이 필요합니다:', connect: '연결', filter: '코인 검색',
    venuesShown: '표시할 거래소', range24h: '24시간', range7d: '7일', close: '닫기',
    coin: '코인', exchange: '거래소', last: '현재가 (KRW)', global: '해외가 (KRW)', premium: '프리미엄',
    usdtPremium: 'USDT 프리미엄', volume: '24시간 거래대금', transfer: '입출금', note: '비고',
    open: '가능', closed: '중단', unknown: '알 수 없음',
    seconds: (n) => n + '초', minutes: (n) => n + '분', hours: (n) => n + '시간',
    needToken: '이 서버는 토큰이 필요합니다.', cannotMake: (m) => '서버가 시세판을 만들지 못했습니다: ' + m,
    updated: (t) => '갱신 ' + t, errors: (list) => '오류: ' + list, venues: (list) => '거래소: ' + list,
    fx: (c, rate, source, asOf, age) => '환율: USD→' + c + ' ' + rate + ' (' + source + ', ' + asOf + ' 기준, ' + age + ' 전)',
    noFx: '환율: 없음',
    tether: (p, c, list) => '테더 프리미엄: ' + p + ' (USDT/' + c + ': ' + list + ')',
    stale: (age) => '지연, ' + age + ' 전', noReference: '일치하는 해외 가격 없음', outlier: (list) => '이상치: ' + list,
    streamEnded: '스트림이 끝났습니다. 다시 연결하는 중…', streamBroken: (m) => '스트림이 끊겼습니다. 다시 연결하는 중… (' + m + ')',
    cannotLoad: (m) => '시세판을 불러오지 못했습니다: ' + m,
    detail: (coin) => coin + ': 기록된 프리미엄', loading: '기록을 불러오는 중…', noStore: '이 서버에는 기록 저장소가 없습니다.',
    noPoints: (coin, since) => since + ' 이후 기록된 ' + coin + ' 프리미엄이 없습니다.',
    summary: (n, since, latest, venue, low, high) => since + ' 이후 프리미엄 ' + n + '개; 최근 ' + latest + ' (' + venue
      + '); 띠: 10–90 백분위, ' + low + ' ~ ' + high,
    historyFailed: (m) => '기록을 불러오지 못했습니다: ' + m,
  },
};

const state = {
  token: null,
  board: null,
  rows: new Map(), // key -> row model
  trs: new Map(), // key -> { tr, cells, texts, row }
  order: [], // the <tr>s in the body, in order
  sort: { key: null, direction: 1 },
  filter: '',
  flashed: new Set(),
  language: 'en',
  hidden: new Set(), // venues whose rows are not shown
  favorites: new Set(), // the coins of `agg favorites`, listed first
  venueList: '', // the picker's venues, joined
  detail: null, // { coin, since, row }
  errors: [],
  status: null, // () => the status line's text
};

const $ = (id) => document.getElementById(id);
const L = () => LABELS[state.language];

// localStorage may be unavailable (a private window's policy): the page works, forgetting choices.
const saved = {
  get(key) { try { return localStorage.getItem(key); } catch { return null; } },
  set(key, value) { try { localStorage.setItem(key, value); } catch { /* not remembered */ } },
};

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
  setStatus(() => L().needToken);
}

// The status line, kept as what makes it, so that a change of language says it again.
function setStatus(make) { state.status = make; $('status').textContent = make(); }

function ageText(seconds) {
  if (seconds < 60) return L().seconds(seconds);
  if (seconds < 3600) return L().minutes(Math.floor(seconds / 60));
  return L().hours(Math.floor(seconds / 3600));
}

function minorOf(currency) { return Object.hasOwn(MINOR, currency) ? MINOR[currency] : 2; }

// --- Settings: theme, palette, language; each remembered in localStorage.

function theme() {
  const chosen = saved.get('agg-theme');
  if (chosen === 'light' || chosen === 'dark') return chosen;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function applySettings() {
  const root = document.documentElement;
  const chosen = saved.get('agg-theme');
  if (chosen === 'light' || chosen === 'dark') root.dataset.theme = chosen; else delete root.dataset.theme;
  const palette = saved.get('agg-palette') === 'standard' ? 'standard' : 'korean';
  root.dataset.palette = palette;
  $('theme-toggle').setAttribute('aria-pressed', String(theme() === 'dark'));
  $('palette-toggle').setAttribute('aria-pressed', String(palette === 'standard'));
}

function initialLanguage() {
  const chosen = saved.get('agg-lang');
  if (chosen === 'en' || chosen === 'ko') return chosen;
  for (const tag of navigator.languages || [navigator.language || '']) {
    const primary = String(tag).toLowerCase().split('-')[0];
    if (primary === 'ko' || primary === 'en') return primary;
  }
  return 'en';
}

function applyLanguage() {
  const labels = L();
  document.documentElement.lang = state.language;
  document.title = labels.title;
  for (const element of document.querySelectorAll('[data-label]')) {
    const text = labels[element.dataset.label];
    if (typeof text === 'string') element.textContent = text;
  }
  $('settings').setAttribute('aria-label', labels.settings);
  const toggle = $('lang-toggle');
  toggle.textContent = labels.otherLanguage;
  toggle.lang = state.language === 'en' ? 'ko' : 'en';
  // Every formatted text is made again in the new language.
  for (const entry of state.trs.values()) entry.row = null;
  if (state.board) { header(state.board); showErrors(); render(); }
  showVenues();
  if (state.status) $('status').textContent = state.status();
  if (state.detail) showDetail();
}

// --- The board's rows.

// The board's rows, one per coin and local venue, as the CLI's table lists them.
function rowsOf(board) {
  const rows = new Map();
  const asOf = Date.parse(board.asOf);
  for (const row of board.rows || []) {
    let noReference = false, outliers = null;
    const flags = row.flags || [];
    if (flags.includes('noReference')) noReference = true;
    else if (flags.includes('priceMismatch')) {
      outliers = row.venues.filter((v) => v.outlier).map((v) => v.exchange).join(', ');
    }
    for (const venue of row.venues) {
      if (!venue.local) continue;
      rows.set(row.base + '\u0000' + venue.exchange, {
        coin: row.base, exchange: venue.exchange, last: venue.last,
        global: row.reference ? row.reference.price : null,
        premium: venue.premiumPercent, usdtPremium: venue.usdtPremiumPercent,
        volume: venue.volumeConverted, transfer: venue.transfer, noReference, outliers,
        nameKo: typeof row.nameKo === 'string' ? row.nameKo : null,
        nameEn: typeof row.nameEn === 'string' ? row.nameEn.toLowerCase() : null,
        seen: asOf, stale: false, age: 0,
      });
    }
  }
  return rows;
}

function noteText(row) {
  const labels = L();
  const notes = [];
  if (row.stale) notes.push(labels.stale(ageText(row.age)));
  if (row.noReference) notes.push(labels.noReference);
  else if (row.outliers !== null) notes.push(labels.outlier(row.outliers));
  return notes.join('; ');
}

function cellText(row, key, currency) {
  const value = row[key];
  switch (key) {
    case 'last': return Decimal.price(value, minorOf(currency));
    case 'global': case 'volume': return value === null || value === undefined ? '-' : Decimal.fixed(value, minorOf(currency));
    case 'premium': case 'usdtPremium': return value === null || value === undefined ? '-' : Decimal.percent(value);
    case 'transfer': return value === null || value === undefined ? '' : Object.hasOwn(LABELS.en, value) && typeof L()[value] === 'string' ? L()[value] : String(value);
    case 'note': return noteText(row);
    default: return value === null || value === undefined ? '' : String(value);
  }
}

function apply(board) {
  if (board.error) { setStatus(() => L().cannotMake(board.error.message)); return; }
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
  state.errors = board.errors || [];
  header(board);
  updatePicker();
  render();
  showErrors();
  setStatus(() => L().updated(board.asOf));
}

function showErrors() {
  const errors = state.errors.map((e) => (e.exchange ? e.exchange + ': ' : '') + e.message);
  $('errors').textContent = errors.length ? L().errors(errors.join(' · ')) : '';
}

function header(board) {
  const currency = board.currency;
  const labels = L();
  if (board.fx) {
    const age = Math.max(0, Math.round((Date.parse(board.asOf) - Date.parse(board.fx.asOf)) / 1000));
    $('fx').textContent = labels.fx(currency, Decimal.price(board.fx.rate, minorOf(currency)), board.fx.source,
      board.fx.asOf, ageText(age)) + (board.fx.attribution ? '; ' + board.fx.attribution : '');
  } else {
    $('fx').textContent = labels.noFx;
  }
  if (board.usdtPremiumPercent !== null && board.usdtPremiumPercent !== undefined) {
    const venues = (board.tether || []).map((t) => t.exchange + ' ' + (t.premiumPercent === null ? '-' : Decimal.percent(t.premiumPercent)));
    $('tether').textContent = labels.tether(Decimal.percent(board.usdtPremiumPercent), currency, venues.join(', '));
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

// Whether a row passes the filter: its coin code, or its Korean or English name when the
// board carries them.
function matcher() {
  const text = state.filter.trim();
  if (!text) return null;
  const upper = text.toUpperCase(), lower = text.toLowerCase();
  return (row) => row.coin.includes(upper) || (row.nameKo !== null && row.nameKo.includes(text))
    || (row.nameEn !== null && row.nameEn.includes(lower));
}

function ordered() {
  const matches = matcher();
  const hidden = state.hidden;
  const rows = [];
  for (const entry of state.rows) {
    const row = entry[1];
    if (hidden.size && hidden.has(row.exchange)) continue;
    if (matches && !matches(row)) continue;
    rows.push(entry);
  }
  const { key, direction } = state.sort;
  if (key) {
    rows.sort((a, b) => {
      const order = compareRows(a[1], b[1], key);
      if (order !== 0) return (a[1][key] === null || b[1][key] === null) ? order : order * direction;
      return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
    });
  }
  return favoritesFirst(rows);
}

// The favorite coins' rows first, each group in the order it had (as the CLI lists them).
function favoritesFirst(rows) {
  const favorites = state.favorites;
  if (!favorites.size) return rows;
  const first = [], rest = [];
  for (const entry of rows) (favorites.has(entry[1].coin) ? first : rest).push(entry);
  return first.concat(rest);
}

// Whether two row models would show the same cells.
function sameRow(a, b) {
  if (!a || a.stale !== b.stale || (b.stale && a.age !== b.age)) return false;
  for (let i = 0; i < COLUMNS.length; i += 1) if (a[COLUMNS[i]] !== b[COLUMNS[i]]) return false;
  return a.noReference === b.noReference && a.outliers === b.outliers;
}

// One row's elements, cloned from a template: a focusable row (Enter or a click opens the coin's
// detail) of nine cells, the numeric ones aligned right.
let rowTemplate = null;
function newRow() {
  if (!rowTemplate) {
    rowTemplate = document.createElement('tr');
    rowTemplate.tabIndex = 0;
    rowTemplate.setAttribute('role', 'row');
    for (const column of COLUMNS) {
      const td = document.createElement('td');
      td.setAttribute('role', 'cell');
      if (NUMERIC.has(column)) td.className = 'num';
      rowTemplate.appendChild(td);
    }
  }
  const tr = rowTemplate.cloneNode(true);
  const cells = [];
  for (let td = tr.firstChild; td; td = td.nextSibling) cells.push(td);
  return { tr, cells, texts: [null, null, null, null, null, null, null, null, null], row: null, currency: null, key: null };
}

function render() {
  const currency = state.board ? state.board.currency : 'KRW';
  const keep = [];
  for (const [key, row] of ordered()) {
    let entry = state.trs.get(key);
    const fresh = !entry;
    if (fresh) {
      entry = newRow();
      entry.key = key;
      entry.tr.aggKey = key;
      state.trs.set(key, entry);
    }
    keep.push(entry.tr);
    // Only the rows whose values changed are formatted and touched.
    if (entry.currency === currency && sameRow(entry.row, row)) continue;
    const before = entry.row;
    entry.row = row;
    entry.currency = currency;
    if (!before || before.stale !== row.stale) entry.tr.classList.toggle('stale', row.stale);
    if (!before || before.coin !== row.coin) entry.tr.classList.toggle('favorite', state.favorites.has(row.coin));
    for (let index = 0; index < COLUMNS.length; index += 1) {
      const column = COLUMNS[index];
      const text = cellText(row, column, currency);
      if (entry.texts[index] === text) continue;
      const td = entry.cells[index];
      td.textContent = text;
      if (SIGNED.has(column)) {
        const sign = row[column] ? Decimal.sign(row[column]) : 0;
        td.className = sign > 0 ? 'num up' : sign < 0 ? 'num down' : 'num';
      }
      if (before && entry.texts[index] !== null && column !== 'note' && column !== 'transfer') flash(td);
      entry.texts[index] = text;
    }
  }
  for (const key of state.trs.keys()) {
    if (!state.rows.has(key)) state.trs.delete(key);
  }
  // The rows are moved only when their order or number changed, all at once from a fragment.
  const order = state.order;
  let same = order.length === keep.length;
  for (let i = 0; same && i < keep.length; i += 1) same = order[i] === keep[i];
  if (!same) {
    const fragment = document.createDocumentFragment();
    for (const tr of keep) fragment.appendChild(tr);
    $('board').tBodies[0].replaceChildren(fragment);
    state.order = keep;
  }
}

let flashTimer = null;
function flash(td) {
  td.classList.add('changed');
  state.flashed.add(td);
  if (flashTimer !== null) return;
  flashTimer = setTimeout(() => {
    flashTimer = null;
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

// --- The venue picker: one checkbox per local venue; the unchecked ones are remembered.

function updatePicker() {
  const venues = [...new Set([...state.rows.values()].map((row) => row.exchange))].sort();
  const list = venues.join(',');
  if (list === state.venueList) return;
  state.venueList = list;
  const picker = $('venue-picker');
  const legend = picker.querySelector('legend');
  const fragment = document.createDocumentFragment();
  for (const venue of venues) {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.id = 'venue-' + venue;
    box.value = venue;
    box.checked = !state.hidden.has(venue);
    label.append(box, ' ' + venue);
    fragment.appendChild(label);
  }
  picker.replaceChildren(legend, fragment);
}

function pickVenue(event) {
  const box = event.target;
  if (box.type !== 'checkbox') return;
  if (box.checked) state.hidden.delete(box.value); else state.hidden.add(box.value);
  saved.set('agg-hidden-venues', JSON.stringify([...state.hidden].sort()));
  render();
}

function readHidden() {
  try {
    const list = JSON.parse(saved.get('agg-hidden-venues') || '[]');
    return new Set(Array.isArray(list) ? list.filter((v) => typeof v === 'string') : []);
  } catch {
    return new Set();
  }
}

// --- A coin's detail: its recorded premiums (/v1/history) as an SVG chart, built with DOM calls.

const SVG = 'http://www.w3.org/2000/svg';
function svg(name, attributes, text) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

// The nearest-rank percentile of decimal strings sorted exactly.
function percentile(sorted, p) {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

function openDetail(coin, row) {
  state.detail = { coin, since: state.detail && state.detail.coin === coin ? state.detail.since : '24h', row, data: null, failure: null };
  $('detail').hidden = false;
  loadDetail();
  $('detail-close').focus();
}

function closeDetail() {
  if (!state.detail) return;
  const { row } = state.detail;
  state.detail = null;
  $('detail').hidden = true;
  $('detail-chart').replaceChildren();
  if (row && row.isConnected) row.focus();
}

async function loadDetail() {
  const detail = state.detail;
  detail.data = null;
  detail.failure = null;
  showDetail();
  let data = null, failure = null;
  try {
    const response = await fetch('/v1/history?symbol=' + encodeURIComponent(detail.coin) + '&since=' + detail.since, { headers: headers() });
    if (response.status === 404) failure = 'noStore';
    else if (!response.ok) failure = 'HTTP ' + response.status;
    else data = await response.json();
  } catch (error) {
    failure = error.message;
  }
  if (state.detail !== detail) return;
  detail.data = data;
  detail.failure = failure;
  showDetail();
}

function showDetail() {
  const detail = state.detail;
  const labels = L();
  $('detail-title').textContent = labels.detail(detail.coin);
  for (const since of ['24h', '7d']) $('range-' + since).setAttribute('aria-pressed', String(detail.since === since));
  const chart = $('detail-chart');
  if (!detail.data) {
    $('detail-summary').textContent = detail.failure === null ? labels.loading
      : detail.failure === 'noStore' ? labels.noStore : labels.historyFailed(detail.failure);
    chart.replaceChildren();
    return;
  }
  const points = (detail.data.premiums || []).filter((p) => typeof p.percent === 'string' && p.basis === 'usd');
  if (!points.length) {
    $('detail-summary').textContent = labels.noPoints(detail.coin, detail.data.since);
    chart.replaceChildren();
    return;
  }
  const sorted = points.map((p) => p.percent).sort(Decimal.compare);
  const low = percentile(sorted, 10), high = percentile(sorted, 90);
  const latest = points[points.length - 1];
  $('detail-summary').textContent = labels.summary(points.length, detail.data.since, Decimal.percent(latest.percent),
    latest.exchange, Decimal.percent(low), Decimal.percent(high));
  chart.replaceChildren(drawChart(points, sorted[0], sorted[sorted.length - 1], low, high));
}

// The chart: one line per venue (the FX basis), the 10th-90th percentile band behind them, the
// extremes and the time span as labels. Coordinates are floats; every label is a decimal string.
function drawChart(points, min, max, low, high) {
  const width = 600, height = 200, left = 64, right = 110, top = 10, bottom = 24;
  const times = points.map((p) => Date.parse(p.time));
  let t0 = Math.min(...times), t1 = Math.max(...times);
  if (t0 === t1) { t0 -= 60000; t1 += 60000; }
  let y0 = Number(min), y1 = Number(max);
  if (y0 === y1) { y0 -= 0.5; y1 += 0.5; }
  const x = (t) => (left + ((t - t0) / (t1 - t0)) * (width - left - right)).toFixed(1);
  const y = (v) => (top + ((y1 - Number(v)) / (y1 - y0)) * (height - top - bottom)).toFixed(1);
  const root = svg('svg', { viewBox: '0 0 ' + width + ' ' + height, role: 'img', 'aria-labelledby': 'detail-summary' });
  root.appendChild(svg('rect', { class: 'band', x: left, width: width - left - right, y: y(high), height: Math.max(1, y(low) - y(high)).toFixed(1) }));
  root.appendChild(svg('line', { class: 'axis', x1: left, x2: left, y1: top, y2: height - bottom }));
  root.appendChild(svg('line', { class: 'axis', x1: left, x2: width - right, y1: height - bottom, y2: height - bottom }));
  root.appendChild(svg('text', { x: left - 6, y: y(max), 'text-anchor': 'end', 'dominant-baseline': 'middle' }, Decimal.percent(max)));
  root.appendChild(svg('text', { x: left - 6, y: y(min), 'text-anchor': 'end', 'dominant-baseline': 'middle' }, Decimal.percent(min)));
  root.appendChild(svg('text', { x: left, y: height - 6 }, new Date(t0).toISOString().slice(0, 16).replace('T', ' ')));
  root.appendChild(svg('text', { x: width - right, y: height - 6, 'text-anchor': 'end' }, new Date(t1).toISOString().slice(0, 16).replace('T', ' ')));
  const venues = [...new Set(points.map((p) => p.exchange))].sort();
  venues.forEach((venue, index) => {
    const series = points.filter((p) => p.exchange === venue);
    const line = svg('polyline', {
      class: 'series s' + (index % 4), 'data-exchange': venue,
      points: series.map((p) => x(Date.parse(p.time)) + ',' + y(p.percent)).join(' '),
    });
    line.appendChild(svg('title', {}, venue));
    root.appendChild(line);
    // A dot on each recorded point: a line of one point would draw nothing.
    for (const p of series) {
      const dot = svg('circle', { class: 'key' + (index % 4), cx: x(Date.parse(p.time)), cy: y(p.percent), r: 3 });
      dot.appendChild(svg('title', {}, venue + ' ' + p.time + ' ' + Decimal.percent(p.percent)));
      root.appendChild(dot);
    }
    root.appendChild(svg('rect', { class: 'key' + (index % 4), x: width - right + 10, y: top + index * 16, width: 10, height: 10 }));
    root.appendChild(svg('text', { x: width - right + 26, y: top + index * 16 + 9 }, venue));
  });
  return root;
}

// --- Data.

async function fetchJSON(path) {
  const response = await fetch(path, { headers: headers() });
  if (response.status === 401) { askToken(); return null; }
  if (!response.ok) throw new Error(path + ': HTTP ' + response.status);
  return response.json();
}

// The favorite coins; a server without them (an older agg, or a failed read) leaves none.
async function loadFavorites() {
  try {
    const favorites = await fetchJSON('/v1/favorites');
    state.favorites = new Set(favorites && Array.isArray(favorites.coins) ? favorites.coins : []);
  } catch {
    state.favorites = new Set();
  }
}

let venueNames = null;
function showVenues() {
  if (venueNames) $('venues').textContent = L().venues(venueNames);
}

async function loadVenues() {
  const venues = await fetchJSON('/v1/exchanges');
  if (!venues) return;
  const list = Array.isArray(venues) ? venues : venues.exchanges || [];
  venueNames = list.map((v) => v.id + ' (' + v.name + ')').join(', ');
  showVenues();
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
      setStatus(() => L().streamEnded);
    } catch (error) {
      setStatus(() => L().streamBroken(error.message));
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function start() {
  try {
    const board = await fetchJSON('/v1/premium');
    if (!board) return;
    await loadFavorites();
    apply(board);
    await loadVenues();
  } catch (error) {
    setStatus(() => L().cannotLoad(error.message));
  }
  stream();
}

function rowOf(element) {
  const tr = element.closest ? element.closest('tbody tr') : null;
  return tr && tr.aggKey ? tr : null;
}

document.addEventListener('DOMContentLoaded', () => {
  readToken();
  state.language = initialLanguage();
  state.hidden = readHidden();
  applySettings();
  applyLanguage();
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', applySettings);
  $('theme-toggle').addEventListener('click', () => {
    saved.set('agg-theme', theme() === 'dark' ? 'light' : 'dark');
    applySettings();
  });
  $('palette-toggle').addEventListener('click', () => {
    saved.set('agg-palette', saved.get('agg-palette') === 'standard' ? 'korean' : 'standard');
    applySettings();
  });
  $('lang-toggle').addEventListener('click', () => {
    state.language = state.language === 'en' ? 'ko' : 'en';
    saved.set('agg-lang', state.language);
    applyLanguage();
  });
  for (const th of document.querySelectorAll('th[data-key]')) {
    th.querySelector('button').addEventListener('click', () => sortBy(th.dataset.key));
  }
  $('filter').addEventListener('input', (event) => { state.filter = event.target.value; render(); });
  $('venue-picker').addEventListener('change', pickVenue);
  const body = $('board').tBodies[0];
  body.addEventListener('click', (event) => {
    const tr = rowOf(event.target);
    if (tr) openDetail(state.trs.get(tr.aggKey).row.coin, tr);
  });
  body.addEventListener('keydown', (event) => {
    const tr = rowOf(event.target);
    if (!tr || event.target !== tr) return;
    if (event.key === 'Enter') { event.preventDefault(); openDetail(state.trs.get(tr.aggKey).row.coin, tr); }
    else if (event.key === 'ArrowDown' && tr.nextElementSibling) { event.preventDefault(); tr.nextElementSibling.focus(); }
    else if (event.key === 'ArrowUp' && tr.previousElementSibling) { event.preventDefault(); tr.previousElementSibling.focus(); }
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && state.detail) { event.preventDefault(); closeDetail(); }
  });
  for (const since of ['24h', '7d']) {
    $('range-' + since).addEventListener('click', () => {
      if (!state.detail || state.detail.since === since) return;
      state.detail.since = since;
      loadDetail();
    });
  }
  $('detail-close').addEventListener('click', closeDetail);
  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    state.token = $('token-input').value;
    sessionStorage.setItem('agg-token', state.token);
    $('token-form').hidden = true;
    start();
  });
  start();
});
