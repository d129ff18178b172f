package dev.headroom.sample;

import java.util.function.Function;

/**
 * The same thing in each direction of user traffic: a rate, a utilization, a limit, a ceiling. One value of this
 * type replaces a download field and an upload field, and {@link #get} replaces picking between them.
 *
 * <p>Usage: {@code PerDirection<Double> rate = PerDirection.of(sample::throughput); double up = rate.get(Direction.UPLOAD);}
 */
public record PerDirection<T>(T download, T upload) {
  /** Each direction's value, from {@code value}. */
  public static <T> PerDirection<T> of(Function<Direction, ? extends T> value) {
    return new PerDirection<>(value.apply(Direction.DOWNLOAD), value.apply(Direction.UPLOAD));
  }

  public T get(Direction d) {
    return d == Direction.DOWNLOAD ? download : upload;
  }

  /** Both values through {@code f}. */
  public <R> PerDirection<R> map(Function<? super T, ? extends R> f) {
    return new PerDirection<>(f.apply(download), f.apply(upload));
  }
}
