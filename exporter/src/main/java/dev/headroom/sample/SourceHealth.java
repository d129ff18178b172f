package dev.headroom.sample;

/**
 * How the last read of one source went, and how many reads of it failed so far.
 *
 * <p>Usage: {@code boolean tunnelRead = sample.source("tunnel").up();}
 */
public record SourceHealth(boolean up, long errors, String lastError) {}
