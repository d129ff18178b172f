package dev.headroom.sample;

/**
 * The datapath's CPU after a pass.
 *
 * <p>Usage: {@code DatapathState d = datapathCpu.collect(datapath, now, cpuState, restarted); double c = d.cores();}
 *
 * @param cpuSeconds cumulative CPU of the datapath
 * @param cores CPU of the datapath in the last interval, in cores (NaN when unknown)
 * @param allowedCpus cores the userspace datapath may run on, 0 when unknown
 * @param allowedBusy mean busy ratio of those cores, NaN when unknown
 */
public record DatapathState(double cpuSeconds, double cores, int allowedCpus, double allowedBusy, String description,
    SourceHealth health) {}
