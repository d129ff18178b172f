package dev.headroom.cmd;

public final class Main {
  public static void main(String[] args) {
    System.out.println("headroom");
  }
}
