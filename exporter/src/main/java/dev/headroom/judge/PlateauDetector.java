package dev.headroom.judge;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds where throughput stops rising as load is added, one load step at a time: the capacity. Each step is one
 * more client (or more streams) and is summarised by its settled mean rate. The rule: the trace has plateaued
 * when each of the last {@code flatSteps} steps (2 by default) raised the best level seen before it by less than
 * {@code minGain} (5 %). A step that adds load and still raises throughput by more restarts the count.
 *
 * <p>So a flat reading after the first client is never a plateau: the first step has nothing to compare with, and
 * at least {@code flatSteps} more steps must each add load without a gain. The ceiling is the mean level of the
 * plateau's steps (the one before the flat run, which set the level, and the flat ones): one step that happened
 * to read high does not become a ceiling the peer never holds again.
 *
 * <p>Usage: {@code PlateauDetector p = new PlateauDetector(0.05, 2); p.addStep(level); p.plateau().ifPresent(...);}
 */
public final class PlateauDetector {
  /**
   * Where the trace plateaued.
   *
   * @param step           1-based step at which the rule was met
   * @param firstFlatStep  the first of the steps that added load without raising throughput
   * @param bytesPerSecond the ceiling: the mean level of steps {@code firstFlatStep - 1} to {@code step}
   */
  public record Plateau(int step, int firstFlatStep, double bytesPerSecond) {}

  private final double minGain;
  private final int flatSteps;
  private final List<Double> levels = new ArrayList<>();
  private double best;
  private int flatRun;
  private Plateau plateau;

  /**
   * @param minGain   a step raising the best level by less than this share adds nothing (0.05: 5 %)
   * @param flatSteps consecutive such steps that make a plateau (at least 1)
   */
  public PlateauDetector(double minGain, int flatSteps) {
    if (!(minGain > 0 && minGain < 1) || flatSteps < 1) {
      throw new IllegalArgumentException("bad plateau settings: minimum gain " + minGain + ", flat steps " + flatSteps);
    }
    this.minGain = minGain;
    this.flatSteps = flatSteps;
  }

  /** Adds the settled mean rate of the step just measured. Returns the plateau, once the rule is met. */
  public Optional<Plateau> addStep(double bytesPerSecond) {
    if (Double.isNaN(bytesPerSecond) || bytesPerSecond < 0 || Double.isInfinite(bytesPerSecond)) {
      throw new IllegalArgumentException("bad step level: " + bytesPerSecond + " B/s");
    }
    levels.add(bytesPerSecond);
    if (plateau != null) {
      best = Math.max(best, bytesPerSecond);
      return plateau(); // found: later steps (the run normally ends) do not move it
    }
    // The first step, and any step before the rate moved at all, has nothing to be flat against.
    boolean flat = levels.size() > 1 && best > 0 && bytesPerSecond < best * (1 + minGain);
    flatRun = flat ? flatRun + 1 : 0;
    best = Math.max(best, bytesPerSecond);
    if (flatRun >= flatSteps) {
      int first = levels.size() - flatSteps + 1;
      double level = levels.subList(first - 2, levels.size()).stream().mapToDouble(Double::doubleValue).average()
          .orElseThrow();
      plateau = new Plateau(levels.size(), first, level);
    }
    return plateau();
  }

  /** The plateau found, or empty while steps still raise throughput (or too few were taken). */
  public Optional<Plateau> plateau() {
    return Optional.ofNullable(plateau);
  }

  /** The best step level: a lower bound on capacity while there is no plateau. */
  public double best() {
    return best;
  }

  public List<Double> levels() {
    return List.copyOf(levels);
  }

  /** Relative gain of step {@code n} (1-based) over the best before it; NaN for the first or from zero. */
  public double gain(int n) {
    double before = 0;
    for (int i = 0; i < n - 1; i++) {
      before = Math.max(before, levels.get(i));
    }
    return n < 2 || before <= 0 ? Double.NaN : levels.get(n - 1) / before - 1;
  }
}
