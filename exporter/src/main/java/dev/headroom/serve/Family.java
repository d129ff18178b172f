package dev.headroom.serve;

/**
 * One metric family's name, help and type, declared once as a constant of the area that writes it, so a
 * family written at several places (per direction, per core, per state) cannot drift in its help or type.
 * Counter names are given without {@code _total}.
 *
 * <p>Usage: {@code static final Family UP = Family.gauge("headroom_tunnel_up", "1 when ..."); f.gauge(UP, 1);}
 */
record Family(String name, String help, Type type) {
  enum Type { GAUGE, COUNTER, HISTOGRAM }

  static Family gauge(String name, String help) {
    return new Family(name, help, Type.GAUGE);
  }

  static Family counter(String name, String help) {
    return new Family(name, help, Type.COUNTER);
  }

  static Family histogram(String name, String help) {
    return new Family(name, help, Type.HISTOGRAM);
  }

  /** Fails when a family is written as another type than declared: a bug, caught by every scrape test. */
  Family require(Type t) {
    if (type != t) {
      throw new IllegalArgumentException(name + " is declared a " + type + ", written as a " + t);
    }
    return this;
  }
}
