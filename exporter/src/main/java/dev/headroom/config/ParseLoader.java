package dev.headroom.config;

import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.WeakReference;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;

/**
 * Runs the command-line grammar (picocli) in a class loader of its own, which nothing references once the parse
 * has returned, so the JVM unloads picocli's classes at the next full collection instead of keeping them for the
 * daemon's life. picocli ships Java 5 class files, which the class-data archive cannot hold; loaded the ordinary
 * way they cost the serving daemon about 2 MiB of metaspace and symbols it never uses again.
 *
 * <p>Child first: {@code picocli.*} and the few headroom classes whose code names picocli ({@link #OWN}) are
 * defined here, from the same class path; every other class comes from the parent, so what a parse returns (JDK
 * types, {@link ConfigException}, records of the parent's) is the parent's and holds nothing of this loader.
 *
 * <p>Usage: {@code Map<?, ?> flags = (Map<?, ?>) ParseLoader.call("dev.headroom.config.SettingFlags", "parse",
 * (Object) args);}
 */
public final class ParseLoader extends ClassLoader {
  /** The headroom classes that use picocli; each is loaded only here (with its nested classes). */
  static final List<String> OWN = List.of("dev.headroom.config.Flags", "dev.headroom.config.SettingFlags",
      "dev.headroom.cmd.CommandLines", "dev.headroom.cmd.SizeCommand");

  /** The loader of the latest call, for tests that prove it is collected. */
  private static volatile WeakReference<ClassLoader> last = new WeakReference<>(null);

  private ParseLoader(ClassLoader parent) {
    super("headroom-parse", parent);
  }

  /**
   * Calls the public static method {@code method} of {@code className} (one of {@link #OWN}) in a new loader and
   * returns its result; a {@link ConfigException} it throws is thrown again with the same message.
   */
  public static Object call(String className, String method, Object... args) throws ConfigException {
    ParseLoader loader = create();
    last = new WeakReference<>(loader);
    try {
      Class<?> c = loader.loadClass(className);
      for (Method m : c.getMethods()) {
        if (m.getName().equals(method)) {
          return m.invoke(null, args);
        }
      }
      throw new IllegalStateException(className + " has no method " + method);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof ConfigException ce) {
        // A new one with the same words: the thrown one's stack trace holds the parse's classes, and with them
        // this loader, for as long as anyone keeps the exception.
        throw new ConfigException(ce.getMessage());
      }
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(cause);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot load the command line: " + e, e);
    }
  }

  /** A new loader over the application's class path. */
  static ParseLoader create() {
    return new ParseLoader(ParseLoader.class.getClassLoader());
  }

  /** The loader of the latest {@link #call}, weakly: cleared once it and picocli's classes can be unloaded. */
  public static WeakReference<ClassLoader> last() {
    return last;
  }

  private static boolean childFirst(String name) {
    if (name.startsWith("picocli.")) {
      return true;
    }
    for (String own : OWN) {
      if (name.equals(own) || name.startsWith(own + "$")) {
        return true;
      }
    }
    return false;
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    if (!childFirst(name)) {
      return super.loadClass(name, resolve);
    }
    synchronized (getClassLoadingLock(name)) {
      Class<?> c = findLoadedClass(name);
      if (c == null) {
        c = findClass(name);
      }
      if (resolve) {
        resolveClass(c);
      }
      return c;
    }
  }

  @Override
  protected Class<?> findClass(String name) throws ClassNotFoundException {
    // The bytes come from the parent's class path (the jar, or target/classes and the picocli jar in tests).
    try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
      if (in == null) {
        throw new ClassNotFoundException(name);
      }
      byte[] b = in.readAllBytes();
      return defineClass(name, b, 0, b.length, ParseLoader.class.getProtectionDomain());
    } catch (IOException e) {
      throw new ClassNotFoundException(name, e);
    }
  }
}
