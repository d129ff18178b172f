package dev.headroom.sample;

/**
 * The underlay NIC after a pass, and the line rate in use.
 *
 * <p>Usage: {@code UnderlayState u = underlay.collect(nowNanos); double util = u.link().traffic().rate(InterfaceTracker.TX_BYTES) / u.lineRateBytesPerSecond();}
 *
 * @param lineRateBytesPerSecond NaN when unknown
 * @param lineRateSource {@code config}, {@code sysfs} or {@code none}
 */
public record UnderlayState(LinkState link, double lineRateBytesPerSecond, String lineRateSource) {}
