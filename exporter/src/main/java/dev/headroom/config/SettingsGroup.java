package dev.headroom.config;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Value semantics for a group of settings, as a record has: two groups are equal when every setting is, so two
 * parses of the same flags and file give equal {@link Config}s. picocli fills the fields, so a group cannot be a
 * record; nothing writes them after the parse.
 *
 * <p>Usage: {@code public final class WebSettings extends SettingsGroup { @Option(...) private String listen; }}
 */
abstract class SettingsGroup {
  private List<Object> values() {
    List<Object> out = new ArrayList<>();
    for (Field f : getClass().getDeclaredFields()) {
      if (!java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
        f.setAccessible(true);
        try {
          out.add(f.get(this));
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o != null && o.getClass() == getClass() && values().equals(((SettingsGroup) o).values());
  }

  @Override
  public int hashCode() {
    return Objects.hash(getClass(), values());
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + values();
  }
}
