-- scripts/charts.sql: SVG charts written by SQL (no plotting tool needed), for `make demo`.
-- Included by scripts/demo.sql; it defines session-local functions only:
--   pg_temp.svg_line_chart(title, y_label, points jsonb, y_max) -> one line per series, a point
--     per x: points is a JSON array of {"series", "i" (the x position, 0..n-1), "x" (its label),
--     "y"}; y runs from 0 to y_max (NULL: the largest y, rounded up to a quarter).
--   pg_temp.svg_share_boxes(title, nodes jsonb) -> a share tree drawn twice as nested boxes, left
--     sized by shares (the target) and right by usage (what was used): nodes is a JSON array of
--     {"path": [labels, root first], "shares", "usage"} with usage rolled up (tree_nodes gives
--     both); each node's box is its parent's box divided among the siblings in proportion, across
--     at the first level and down at the next, and so on.

CREATE FUNCTION pg_temp.xml(s text) RETURNS text LANGUAGE sql IMMUTABLE
AS $$ SELECT replace(replace(replace(replace(s, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;') $$;

CREATE FUNCTION pg_temp.svg_color(i int) RETURNS text LANGUAGE sql IMMUTABLE
AS $$ SELECT (ARRAY['#1f77b4', '#e4572e', '#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22'])[1 + i % 8] $$;

-- a number as SVG wants it: at most one decimal, no exponent
CREATE FUNCTION pg_temp.px(v float8) RETURNS text LANGUAGE sql IMMUTABLE
AS $$ SELECT trim(to_char(round(v::numeric, 1), 'FM999990.0')) $$;

CREATE FUNCTION pg_temp.svg_line_chart(title text, y_label text, points jsonb, y_max float8 DEFAULT NULL)
RETURNS text LANGUAGE sql STABLE AS $$
WITH p AS (
    SELECT e ->> 'series' AS series, (e ->> 'i')::int AS i, e ->> 'x' AS x, (e ->> 'y')::float8 AS y
    FROM jsonb_array_elements(points) AS e),
dims AS (
    SELECT 720 AS w, 400 AS h, 64 AS left_, 140 AS right_, 48 AS top, 56 AS bottom,
           greatest(max(i), 1) AS last_i,
           coalesce(y_max, greatest(ceil(max(y) * 4) / 4, 0.25)) AS ymax
    FROM p),
plot AS (
    SELECT *, w - left_ - right_ AS pw, h - top - bottom AS ph FROM dims),
series AS (
    SELECT series, (row_number() OVER (ORDER BY series) - 1)::int AS k FROM (SELECT DISTINCT series FROM p) AS s),
xy AS (
    SELECT p.*, s.k, plot.left_ + plot.pw * p.i / plot.last_i AS px,
           plot.top + plot.ph * (1 - p.y / plot.ymax) AS py
    FROM p JOIN series AS s USING (series), plot)
SELECT concat_ws(E'\n',
    format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">',
           w, h, w, h),
    format('<rect width="%s" height="%s" fill="#ffffff"/>', w, h),
    format('<text x="%s" y="28" font-size="15" font-weight="bold">%s</text>', left_, pg_temp.xml(title)),
    -- horizontal grid lines and y ticks at quarters of the range
    (SELECT string_agg(format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#dddddd"/><text x="%s" y="%s" text-anchor="end" fill="#444444">%s</text>',
                              left_, pg_temp.px(top + ph * (1 - q / 4.0)), left_ + pw, pg_temp.px(top + ph * (1 - q / 4.0)),
                              left_ - 6, pg_temp.px(top + ph * (1 - q / 4.0) + 4), round((ymax * q / 4)::numeric, 2)),
                       E'\n' ORDER BY q)
     FROM generate_series(0, 4) AS q),
    format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#444444"/>', left_, top + ph, left_ + pw, top + ph),
    format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#444444"/>', left_, top, left_, top + ph),
    format('<text transform="translate(16 %s) rotate(-90)" text-anchor="middle" fill="#444444">%s</text>',
           top + ph / 2, pg_temp.xml(y_label)),
    -- x labels under their points
    (SELECT string_agg(format('<text x="%s" y="%s" text-anchor="middle" fill="#444444">%s</text>',
                              pg_temp.px(px), top + ph + 20, pg_temp.xml(x)), E'\n' ORDER BY i)
     FROM (SELECT DISTINCT i, x, px FROM xy) AS xs),
    -- one line and its points per series, and its legend entry
    (SELECT string_agg(line, E'\n' ORDER BY k)
     FROM (SELECT k, concat_ws(E'\n',
               format('<polyline fill="none" stroke="%s" stroke-width="2.5" points="%s"/>', pg_temp.svg_color(k),
                      string_agg(pg_temp.px(px) || ',' || pg_temp.px(py), ' ' ORDER BY i)),
               string_agg(format('<circle cx="%s" cy="%s" r="3.5" fill="%s"><title>%s, %s: %s</title></circle>',
                                 pg_temp.px(px), pg_temp.px(py), pg_temp.svg_color(k), pg_temp.xml(series),
                                 pg_temp.xml(x), round(y::numeric, 3)), E'\n' ORDER BY i),
               format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2.5"/><text x="%s" y="%s">%s</text>',
                      left_ + pw + 16, top + 12 + 20 * k, left_ + pw + 40, top + 12 + 20 * k, pg_temp.svg_color(k),
                      left_ + pw + 46, top + 16 + 20 * k, pg_temp.xml(series))) AS line
           FROM xy, plot GROUP BY k, series, left_, pw, top) AS lines),
    '</svg>')
FROM plot
$$;

CREATE FUNCTION pg_temp.svg_share_boxes(title text, nodes jsonb) RETURNS text LANGUAGE sql STABLE AS $$
WITH RECURSIVE n AS (
    SELECT ARRAY(SELECT jsonb_array_elements_text(e -> 'path')) AS path,
           coalesce((e ->> 'shares')::float8, 0) AS shares, coalesce((e ->> 'usage')::float8, 0) AS usage
    FROM jsonb_array_elements(nodes) AS e),
panel AS (
    SELECT * FROM (VALUES (0, 'shares (the target)', 20), (1, 'usage (what was used)', 380)) AS t(side, heading, x0)),
weighted AS (                                -- each node's slice of its parent, on each side
    SELECT n.path, cardinality(n.path) AS depth, panel.side,
           CASE panel.side WHEN 0 THEN n.shares ELSE n.usage END AS w
    FROM n, panel WHERE cardinality(n.path) > 0),
slices AS (
    SELECT path, depth, side, w,
           coalesce((sum(w) OVER sib - w) / nullif(sum(w) OVER all_sib, 0), 0) AS f0,
           coalesce(sum(w) OVER sib / nullif(sum(w) OVER all_sib, 0), 0) AS f1
    FROM weighted
    WINDOW sib AS (PARTITION BY side, path[1:depth - 1] ORDER BY path ROWS UNBOUNDED PRECEDING),
           all_sib AS (PARTITION BY side, path[1:depth - 1])),
boxes AS (                                   -- the root's box is the panel
    SELECT panel.side, ARRAY[]::text[] AS path, 0 AS depth, panel.x0::float8 AS x, 60::float8 AS y,
           340::float8 AS bw, 340::float8 AS bh, 1::float8 AS frac, NULL::text AS top_label
    FROM panel
    UNION ALL
    SELECT s.side, s.path, s.depth,
           CASE WHEN s.depth % 2 = 1 THEN ix + iw * s.f0 ELSE ix END,
           CASE WHEN s.depth % 2 = 1 THEN iy ELSE iy + ih * s.f0 END,
           CASE WHEN s.depth % 2 = 1 THEN iw * (s.f1 - s.f0) ELSE iw END,
           CASE WHEN s.depth % 2 = 1 THEN ih ELSE ih * (s.f1 - s.f0) END,
           b.frac * (s.f1 - s.f0), coalesce(b.top_label, s.path[1])
    FROM boxes AS b
    CROSS JOIN LATERAL (SELECT b.x + CASE WHEN b.depth = 0 THEN 0 ELSE 3 END AS ix,
                               b.y + CASE WHEN b.depth = 0 THEN 0 ELSE 18 END AS iy,
                               b.bw - CASE WHEN b.depth = 0 THEN 0 ELSE 6 END AS iw,
                               b.bh - CASE WHEN b.depth = 0 THEN 0 ELSE 21 END AS ih) AS inner_
    JOIN slices AS s ON s.side = b.side AND s.depth = b.depth + 1 AND s.path[1:b.depth] = b.path),
groups AS (
    SELECT top_label, (row_number() OVER (ORDER BY top_label) - 1)::int AS k
    FROM (SELECT DISTINCT top_label FROM boxes WHERE depth > 0) AS g),
leaf AS (
    SELECT path FROM n AS a
    WHERE cardinality(path) > 0
      AND NOT EXISTS (SELECT FROM n AS c WHERE cardinality(c.path) = cardinality(a.path) + 1
                                           AND c.path[1:cardinality(a.path)] = a.path))
SELECT concat_ws(E'\n',
    '<svg xmlns="http://www.w3.org/2000/svg" width="740" height="420" viewBox="0 0 740 420" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">',
    '<rect width="740" height="420" fill="#ffffff"/>',
    format('<text x="20" y="28" font-size="15" font-weight="bold">%s</text>', pg_temp.xml(title)),
    (SELECT string_agg(format('<text x="%s" y="52" fill="#444444">%s</text><rect x="%s" y="60" width="340" height="340" fill="none" stroke="#444444"/>',
                              x0, heading, x0), E'\n' ORDER BY side) FROM panel),
    (SELECT string_agg(format('<g><title>%s: %s%% of the %s</title><rect x="%s" y="%s" width="%s" height="%s" fill="%s" fill-opacity="%s" stroke="%s"/>%s</g>',
                              pg_temp.xml(array_to_string(b.path, '.')), round((100 * b.frac)::numeric, 1),
                              CASE b.side WHEN 0 THEN 'shares' ELSE 'usage' END,
                              pg_temp.px(b.x), pg_temp.px(b.y), pg_temp.px(b.bw), pg_temp.px(b.bh),
                              pg_temp.svg_color(g.k), CASE WHEN l.path IS NULL THEN '0.12' ELSE '0.55' END,
                              pg_temp.svg_color(g.k),
                              CASE WHEN b.bh < 16 THEN ''
                                   ELSE format('<text x="%s" y="%s">%s</text>', pg_temp.px(b.x + 4), pg_temp.px(b.y + 13),
                                               pg_temp.xml(CASE WHEN b.bw >= 8 + 7 * length(b.label) THEN b.label
                                                                WHEN b.bw >= 8 + 7 * length(b.path[b.depth]) THEN b.path[b.depth]
                                                                ELSE '' END))
                              END),
                       E'\n' ORDER BY b.side, b.path)
     FROM (SELECT *, format('%s %s%%', path[depth], round((100 * frac)::numeric)) AS label FROM boxes) AS b
     JOIN groups AS g USING (top_label) LEFT JOIN leaf AS l USING (path)
     WHERE b.depth > 0 AND b.bw > 0.05 AND b.bh > 0.05),
    '</svg>')
$$;
