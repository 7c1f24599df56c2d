-- Search counts and pages by index-only scans (0002_search_indexes), which
-- skip the table only for pages the visibility map marks all-visible. Every
-- activity update (last_active_at) clears that mark on a page or two, and by
-- default autovacuum only sets it again after 20% of the rows changed: with
-- a million members the counts would read most table pages again. Vacuum
-- members after 0.5% of its rows (plus 1,000) changed instead; a vacuum of
-- mostly all-visible pages is cheap. Measured in bench/search.ts (README
-- "Performance"). PGlite accepts and ignores these (it runs no autovacuum).
ALTER TABLE "members" SET (autovacuum_vacuum_scale_factor = 0.005, autovacuum_vacuum_threshold = 1000);
