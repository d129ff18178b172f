package dev.headroom.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the metric areas write becomes client_java snapshots: unknowns left out, types held to their declaration. */
class FamiliesTest {
  private static final Family VALUES = Family.gauge("test_values", "Numbers.");
  private static final Family UNKNOWN = Family.gauge("test_unknown", "Only NaN.");
  private static final Family STATE = Family.gauge("test_state", "A StateSet.");
  private static final Family RATE = Family.histogram("test_rate", "A histogram.");

  @Test
  void anUnknownValueIsLeftOutAndAFamilyWithoutPointsIsNotExposed() {
    Families f = new Families();
    f.gauge(VALUES, 1.0, "v", "one");
    f.gauge(VALUES, Double.NaN, "v", "unknown");
    f.gauge(UNKNOWN, Double.NaN);
    MetricSnapshots s = f.build();
    assertEquals(List.of("test_values"), s.stream().map(m -> m.getMetadata().getName()).toList());
    assertEquals(1, s.get(0).getDataPoints().size());
  }

  @Test
  void aStateSetIsOneGaugePerStateOneForTheActive() {
    Families f = new Families();
    f.stateSet(STATE, "state", new String[] {"up", "down"}, Set.of("down"), "direction", "upload");
    GaugeSnapshot g = (GaugeSnapshot) f.build().get(0);
    assertEquals(2, g.getDataPoints().size());
    for (GaugeSnapshot.GaugeDataPointSnapshot p : g.getDataPoints()) {
      assertEquals("upload", p.getLabels().get("direction"));
      assertEquals(p.getLabels().get("state").equals("down") ? 1.0 : 0.0, p.getValue());
    }
  }

  @Test
  void histogramBucketsArePerBucketAndCumulatedByTheModel() {
    Families f = new Families();
    f.histogram(RATE, new double[] {1, Double.POSITIVE_INFINITY}, new long[] {2, 3}, 7.5);
    MetricSnapshot m = f.build().get(0);
    HistogramSnapshot.HistogramDataPointSnapshot p = ((HistogramSnapshot) m).getDataPoints().get(0);
    assertEquals(5, p.getCount());
    assertEquals(7.5, p.getSum());
    assertThrows(IllegalArgumentException.class,
        () -> f.histogram(RATE, new double[] {1, 2}, new long[] {2, 3}, 7.5), "bounds must end in +Inf");
  }

  @Test
  void aFamilyWrittenAsAnotherTypeThanDeclaredFails() {
    Families f = new Families();
    assertThrows(IllegalArgumentException.class, () -> f.counter(VALUES, 1));
  }
}
