package dev.sqe.peers;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The scaffolding the client-driver peers share: `--name value` arguments, and scenario steps
 * whose result (or error, as the peer renders it) is recorded under the step's name in one
 * JSON object that pytest asserts on.
 */
final class PeerSteps {
  static final ObjectMapper JSON = new ObjectMapper();

  /** One step of a scenario: returns what it observed, as JSON. */
  @FunctionalInterface
  interface Step {
    Object run() throws Exception;
  }

  private PeerSteps() {}

  /** `--name value` pairs; IllegalArgumentException on anything else. */
  static Map<String, String> options(String[] args) {
    Map<String, String> opts = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("bad argument " + args[i]);
      }
      opts.put(args[i].substring(2), args[++i]);
    }
    return opts;
  }

  /** Runs `step` and records its result, or `error(e)` with the stack trace on stderr. */
  static void step(ObjectNode out, String name, Step step, Function<Throwable, ObjectNode> error) {
    try {
      out.set(name, JSON.valueToTree(step.run()));
    } catch (Throwable e) {
      System.err.println("step " + name + " failed:");
      e.printStackTrace();
      out.set(name, error.apply(e));
    }
  }
}
