package dev.headroom.sample;

import dev.headroom.sample.census.CensusSnapshot;
import dev.headroom.sample.census.CensusTotals;

/**
 * The latest tunnel census.
 *
 * <p>Usage: {@code CensusState c = census.collect(datapath, now, wall, false); int tunnels = c.snapshot() == null ? 0 : c.snapshot().tunnels();}
 *
 * @param snapshot the latest census, null when none was taken (no tunnel, or failing)
 * @param totals cumulative per-tunnel rate observations, null before the first census
 */
public record CensusState(CensusSnapshot snapshot, CensusTotals totals, SourceHealth health) {}
