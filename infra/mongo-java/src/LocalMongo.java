import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs mongo-java-server on a loopback address for tests and local runs.
 * Its collections serialise every write, so single-document updates are
 * atomic, as the service's leases and counters need (FerretDB v1 loses
 * concurrent updates of one document).
 *
 *   --host 127.0.0.1   address to bind (loopback only)
 *   --port 0           0 picks a free port
 *   --file PATH        H2 MVStore file to keep data in; without it, memory only
 *   --port-file PATH   where to write the chosen port once listening
 */
public class LocalMongo {
  public static void main(String[] args) throws Exception {
    String host = "127.0.0.1";
    int port = 0;
    String file = null;
    String portFile = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--host" -> host = args[++i];
        case "--port" -> port = Integer.parseInt(args[++i]);
        case "--file" -> file = args[++i];
        case "--port-file" -> portFile = args[++i];
        default -> {
          System.err.println("local-mongo: unknown argument " + args[i]);
          System.exit(2);
        }
      }
    }
    MongoServer server = new MongoServer(file == null ? new MemoryBackend() : new IdLookupBackend(file));
    server.bind(host, port);
    InetSocketAddress address = server.getLocalAddress();
    // Flush and close the store on SIGTERM so nothing written is lost.
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown));
    if (portFile != null) Files.writeString(Path.of(portFile), String.valueOf(address.getPort()));
    System.out.println("ready mongodb://" + host + ":" + address.getPort() + "/");
    Thread.currentThread().join();
  }
}
