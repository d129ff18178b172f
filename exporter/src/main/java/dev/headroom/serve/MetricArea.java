package dev.headroom.serve;

/**
 * One area's metric families (tunnel, underlay, CPU, verdict, census, self), written from the published
 * snapshot: each area declares its families once, as {@link Family} constants, and only reads the snapshot.
 *
 * <p>Usage: {@code for (MetricArea a : areas) a.write(families, published);}
 */
interface MetricArea {
  void write(Families f, Published p);
}
