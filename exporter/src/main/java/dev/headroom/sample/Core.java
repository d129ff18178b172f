package dev.headroom.sample;

import dev.headroom.read.CpuTimes;

/**
 * One core in a sample: its cumulative times (absent while offline) and its busy share of the last interval.
 *
 * <p>Usage: {@code if (core.online() && core.busy() >= 0.9) saturated++;}
 */
public record Core(int cpu, boolean online, CpuTimes times, double busy) {}
