// Helpers of the headroom mixin: number and duration formatting, and the two manifesters render.sh uses.
//
// Why not std.manifestYamlDoc / std.manifestJsonEx: jsonnet 0.18 sorts object keys and quotes every string,
// so a rule would read `- expr: ...` before `record: "..."`; alerts/multisite/strip_annotations.py and the
// multisite test's `sed -n 's/^ *- record: *//p'` read the rule file line by line and need `- record: NAME`
// / `- alert: NAME` first and unquoted. And 0.18 prints doubles with 17 significant digits (0.8 becomes
// 0.80000000000000004), in std.toString and in the JSON manifester alike.
local all(a) = std.foldl(function(x, y) x && y, a, true);
// std.findSubstr is quadratic in jsonnet 0.18 and its splitLimit splits a 2-character separator at its first
// character; strReplace is native and right.
local contains(s, p) = std.length(std.strReplace(s, p, '')) != std.length(s);

{
  // Shortest decimal form that reads back as the same double: 0.8, 0.95, 125000, 1e6, 2.5e-7.
  num(x)::
    assert std.isNumber(x) : 'num: not a number: ' + std.toString(x);
    local trailingZeros(n, k) = if n != 0 && n % 10 == 0 then trailingZeros(n / 10, k + 1) else k;
    if x == std.floor(x) && std.abs(x) < 1e15 then
      local k = trailingZeros(x, 0);
      // 1000000 -> 1e6 (only where the exponent form is shorter), 125000 stays.
      if k >= 4 then std.toString(x / std.pow(10, k)) + 'e' + k else std.toString(x)
    else
      local cands = [std.format('%.' + p + 'g', x) for p in std.range(1, 17)];
      local s = [c for c in cands if std.parseJson(c) == x][0];
      // %g writes 1e-09 / 1e+20; PromQL and JSON read 1e-9 / 1e20 alike, the short form reads better.
      std.strReplace(std.strReplace(std.strReplace(s, 'e+', 'e'), 'e-0', 'e-'), 'e0', 'e'),

  // A Gbps figure in an expression: at least one decimal (3 -> 3.0, 5.5 -> 5.5).
  gbps(x):: local s = self.num(x); if contains(s, '.') || contains(s, 'e') then s else s + '.0',

  // A ratio as a percentage for prose: 0.8 -> '80', 0.955 -> '95.5'.
  pct(x):: self.num(std.floor(x * 100 * 1000 + 0.5) / 1000),

  // Every number field of an object as its num() string, for `'...%(key)s...' % fmt(_config)`.
  fmt(cfg):: std.mapWithKey(function(k, v) if std.isNumber(v) then $.num(v) else v, cfg),

  // '15m' -> {n: 15, unit: 'minute'}; null for a compound or unknown duration ('1h30m').
  local units = { s: 'second', m: 'minute', h: 'hour', d: 'day', w: 'week', y: 'year' },
  local parse(d) =
    local u = std.substr(d, std.length(d) - 1, 1);
    local n = std.substr(d, 0, std.length(d) - 1);
    if std.objectHas(units, u) && std.length(n) > 0
       && all([std.member('0123456789', c) for c in std.stringChars(n)])
    then { n: std.parseInt(n), unit: units[u] } else null,

  // A Prometheus duration in words: '15m' -> '15 minutes', '1h' -> '1 hour'; anything else stays as written.
  duration(d)::
    local p = parse(d);
    if p == null then d else '%d %s%s' % [p.n, p.unit, if p.n == 1 then '' else 's'],

  // As an adjective: '14d' -> '14-day'.
  durationAdjective(d)::
    local p = parse(d);
    if p == null then d else '%d-%s' % [p.n, p.unit],

  // 'in the last ...': '1h' -> 'hour', '2h' -> '2 hours'.
  durationLast(d)::
    local p = parse(d);
    if p == null then d else if p.n == 1 then p.unit else '%d %ss' % [p.n, p.unit],

  // Days in words: 28 -> '4 weeks', 10 -> '10 days', 1 -> 'a day'.
  days(n)::
    if n == 1 then 'a day'
    else if n % 7 == 0 then (if n == 7 then 'a week' else '%d weeks' % (n / 7))
    else '%d days' % n,

  // Days as an adjective: 28 -> '4-week', 10 -> '10-day'.
  daysAdjective(n):: if n % 7 == 0 then '%d-week' % (n / 7) else '%d-day' % n,

  // Hours in words: 24 -> 'a day', 168 -> '7 days', 36 -> '36 hours'.
  hours(n):: if n % 24 == 0 then (if n == 24 then 'a day' else '%d days' % (n / 24)) else '%d hours' % n,

  // A selector of discover's inventory (headroom_netbird_*) with its Network label as _config.networkLabel:
  // the selector itself when the two names agree, else a label_replace that copies it over.
  netbirdInventory(c)::
    function(sel)
      if c.netbirdNetworkLabel == c.networkLabel then sel
      else 'label_replace(%s, "%s", "$1", "%s", "(.*)")' % [sel, c.networkLabel, c.netbirdNetworkLabel],

  // ---------------------------------------------------------------------------------------------------------
  // Block-style YAML for Prometheus rule files, in the order people write them.
  local keyOrder = [
    'name',
    'interval',
    'limit',
    'rules',
    'record',
    'alert',
    'expr',
    'for',
    'keep_firing_for',
    'labels',
    'annotations',
    'summary',
    'description',
    'runbook_url',
  ],
  local orderedFields(o) =
    local fs = std.objectFields(o);
    [k for k in keyOrder if std.member(fs, k)] + [k for k in fs if !std.member(keyOrder, k)],

  // (std.member on a string is slow in 0.18: sets of characters are objects.)
  local charSet(s) = { [c]: true for c in std.stringChars(s) },
  local indicators = charSet('-?:,[]{}#&*!|>\'"%@` '),
  local numberChars = charSet('0123456789.eE+-_'),
  local isPlain(s) =
    local n = std.length(s);
    local first = std.substr(s, 0, 1);
    local lower = std.asciiLower(s);
    n > 0
    && !std.objectHas(indicators, first)
    && !contains(s, '\n')
    && !contains(s, ': ')
    && !contains(s, ' #')
    // Go templates ({{ ... }}) read better quoted, as hand-written rule files do.
    && !contains(s, '{{')
    && std.substr(s, n - 1, 1) != ':' && std.substr(s, n - 1, 1) != ' '
    && !std.member(['true', 'false', 'yes', 'no', 'on', 'off', 'null', 'y', 'n'], lower)
    // Anything that could read as a number stays quoted.
    && !(n < 40 && all([std.objectHas(numberChars, c) for c in std.stringChars(s)])),

  // Folds a long line at single spaces (a `>-` scalar joins its lines with one space each).
  local count(s, p) = (std.length(s) - std.length(std.strReplace(s, p, ''))) / std.length(p),
  local fold(s, width) =
    local words = std.split(s, ' ');
    local n = std.length(words);
    // Break only at a single space between two words (the next line never starts with a space) and outside
    // a template action ({{ ... }}), so each line reads on its own.
    local go(i, cur, depth, done) =
      if i == n then done + [cur]
      else
        local w = words[i];
        local d = depth + count(w, '{{') - count(w, '}}');
        if w != '' && words[i - 1] != '' && cur != '' && depth == 0 && std.length(cur) + 1 + std.length(w) > width
        then go(i + 1, w, d, done + [cur]) tailstrict
        else go(i + 1, cur + ' ' + w, d, done) tailstrict;
    go(1, words[0], count(words[0], '{{') - count(words[0], '}}'), []),

  // Lines a `>-` scalar can fold back into s: each one non-empty, no space at either end, joined by one space.
  local foldsTo(lines, s) =
    lines != null && std.length(lines) > 1 && std.join(' ', lines) == s
    && all([l != '' && std.substr(l, 0, 1) != ' ' && std.substr(l, std.length(l) - 1, 1) != ' ' for l in lines]),

  // The text after `key:` for a string: ` plain`, ` "quoted"`, ` |` + literal lines, ` >-` + folded lines
  // (at the lines given in the hidden field KEYLines, e.g. descriptionLines, when they fold back into it).
  local scalar(s, ind, hint=null) =
    local lines = std.split(s, '\n');
    local multi = std.length(lines) > 1;
    local endsNl = std.length(s) > 0 && std.substr(s, std.length(s) - 1, 1) == '\n';
    local body = if endsNl then lines[:std.length(lines) - 1] else lines;
    local folded = fold(s, 100);
    if foldsTo(hint, s) then ' >-' + std.join('', ['\n' + ind + l for l in hint])
    else if multi && std.length(body) > 0 && std.substr(body[0], 0, 1) != ' '
            && all([std.length(std.rstripChars(l, ' ')) == std.length(l) for l in body])
            && !(endsNl && std.length(s) > 1 && std.substr(s, std.length(s) - 2, 1) == '\n')
    then ' |' + (if endsNl then '' else '-') + std.join('', ['\n' + (if l == '' then '' else ind + l) for l in body])
    else if !multi && std.length(s) > 160 && std.length(folded) > 1
            && std.substr(s, 0, 1) != ' ' && std.substr(s, std.length(s) - 1, 1) != ' '
    then ' >-' + std.join('', ['\n' + ind + l for l in folded])
    else if isPlain(s) then ' ' + s
    else ' ' + std.escapeStringJson(s),

  local value(v, ind, hint=null) =
    if std.isString(v) then scalar(v, ind + '  ', hint)
    else if std.isNumber(v) then ' ' + $.num(v)
    else if std.isBoolean(v) then (if v then ' true' else ' false')
    else if v == null then ' null'
    else if std.isObject(v) then (if std.length(std.objectFields(v)) == 0 then ' {}' else '\n' + mapping(v, ind + '  '))
    else if std.isArray(v) then (if std.length(v) == 0 then ' []' else '\n' + sequence(v, ind + '  '))
    else error 'yaml: cannot manifest ' + std.type(v),

  local mapping(o, ind) = std.join('\n', [
    ind + k + ':' + value(o[k], ind, if std.objectHasAll(o, k + 'Lines') then o[k + 'Lines'] else null)
    for k in orderedFields(o)
  ]),

  // Items of a sequence of mappings are separated by an empty line, as a hand-written rule file is.
  local sequence(a, ind) =
    local objs = all([std.isObject(x) for x in a]);
    std.join(if objs then '\n\n' else '\n', [
      if std.isObject(x) then ind + '- ' + std.substr(mapping(x, ind + '  '), std.length(ind) + 2, 1e9)
      else ind + '-' + value(x, ind)
      for x in a
    ]),

  // A whole rule file ({groups: [...]}), newline-terminated.
  manifestRules(doc):: mapping(doc, '') + '\n',

  // ---------------------------------------------------------------------------------------------------------
  // JSON as `json.dumps(indent=2)` writes it (keys sorted), numbers in their shortest form.
  manifestJson(v, ind='')::
    if std.isObject(v) then
      local fs = std.objectFields(v);
      if std.length(fs) == 0 then '{}'
      else '{\n' + std.join(',\n', [ind + '  ' + std.escapeStringJson(k) + ': ' + $.manifestJson(v[k], ind + '  ') for k in fs]) + '\n' + ind + '}'
    else if std.isArray(v) then
      if std.length(v) == 0 then '[]'
      else '[\n' + std.join(',\n', [ind + '  ' + $.manifestJson(x, ind + '  ') for x in v]) + '\n' + ind + ']'
    else if std.isString(v) then std.escapeStringJson(v)
    else if std.isNumber(v) then $.num(v)
    else if std.isBoolean(v) then (if v then 'true' else 'false')
    else if v == null then 'null'
    else error 'json: cannot manifest ' + std.type(v),
}
