-- The PBS design page PP-1018 ("Design document review of Placement set sorting feature"): the
-- 36 vnodes of its example, labels as written ("sw4," too).
-- Included by the placement regression suite and usable from psql: \i sql/data/pp1018_vnodes.sql
CREATE TEMP TABLE pp1018_vnodes (vnode text, ncpus int, mem text, router text, switch text);
INSERT INTO pp1018_vnodes VALUES
    ('vn10', 4, '8gb', 'rt1', 'sw3'), ('vn11', 2, '8gb', 'rt1', 'sw2'),
    ('vn12', 8, '8gb', 'rt1', 'sw4,sw1'), ('vn13', 2, '4gb', 'rt1', 'sw1'),
    ('vn14', 8, '16gb', 'rt1', 'sw2'), ('vn15', 4, '16gb', 'rt1', 'sw3,sw1'),
    ('vn16', 8, '8gb', 'rt1', 'sw4,'), ('vn17', 4, '4gb', 'rt1', 'sw3,sw4'),
    ('vn20', 2, '4gb', 'rt2', 'sw4,sw3,sw2'), ('vn21', 2, '8gb', 'rt2', 'sw3,sw1'),
    ('vn22', 4, '8gb', 'rt2', 'sw2,sw4,sw1,sw3'), ('vn23', 4, '4gb', 'rt2', 'sw4,sw3,sw1'),
    ('vn24', 8, '8gb', 'rt2', 'sw4,sw2'), ('vn25', 4, '4gb', 'rt2', 'sw1,sw2,sw3,sw4'),
    ('vn26', 2, '2gb', 'rt2', 'sw4'), ('vn27', 2, '4gb', 'rt2', 'sw2,sw3'),
    ('vn30', 2, '2gb', 'rt3', 'sw1,sw2,sw4'), ('vn31', 8, '8gb', 'rt3', 'sw3'),
    ('vn32', 4, '4gb', 'rt3', 'sw4,sw2,sw3'), ('vn33', 4, '4gb', 'rt3', 'sw4,sw3'),
    ('vn34', 8, '16gb', 'rt3', 'sw4'), ('vn35', 8, '8gb', 'rt3', 'sw2,sw1,sw4'),
    ('vn36', 4, '8gb', 'rt3', 'sw3'), ('vn37', 8, '16gb', 'rt3', 'sw1'),
    ('vn40', 4, '8gb', 'rt4', 'sw2'), ('vn41', 2, '2gb', 'rt4', 'sw2'),
    ('vn42', 8, '16gb', 'rt4', 'sw4,sw3,sw2'), ('vn43', 4, '4gb', 'rt4', 'sw3,sw4'),
    ('vn44', 8, '8gb', 'rt4', 'sw1,sw2,sw3,sw4'), ('vn45', 4, '4gb', 'rt4', 'sw4,sw2'),
    ('vn46', 8, '8gb', 'rt4', 'sw1'), ('vn47', 8, '8gb', 'rt4', 'sw4'),
    ('vn50', 4, '8gb', 'rt3,rt1', 'sw4,sw1'), ('vn51', 2, '2gb', 'rt3,rt1', 'sw2'),
    ('vn52', 8, '16gb', 'rt3,rt1', 'sw2'), ('vn53', 4, '4gb', 'rt3,rt1', 'sw1,sw4');
