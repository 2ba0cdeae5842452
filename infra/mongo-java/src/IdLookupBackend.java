import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.DatabaseResolver;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.Missing;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.Utils;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.bson.ObjectId;
import de.bwaldvogel.mongo.oplog.Oplog;
import de.bwaldvogel.mongo.wire.bson.BsonEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/**
 * The H2 backend, except that a query naming its `_id`s (one, or `$in` a
 * list) reads those documents directly instead of scanning the collection,
 * and that index changes are serialised with the collection's writes.
 *
 * mongo-java-server uses its `_id` index only when a query has no other
 * field: `{_id: x, status: 'pending'}`, the shape of every guarded update the
 * service makes (claims, results, renewals, counters), scans and matches every
 * document. Each of those updates then costs time in proportion to the
 * collection, and they are serialised per collection. Here the documents with
 * those `_id`s (documents are keyed by it) are the only candidates, and the
 * whole query is still matched against them, as MongoDB does with its `_id` index.
 *
 * Writes, made cheap for submissions of thousands of sub tasks:
 * - unique indexes (`_id`'s among them) are kept in maps ordered without
 *   serialising their keys (KeyValueType, KeyIndex), under names of their own:
 *   a data file written before is reindexed when opened, its old index maps removed;
 * - documents are stored as BSON, not Java-serialised (DocumentType);
 * - a collection's data size is summed when asked, not kept at every write.
 * And an insert reports how many documents it stored, as MongoDB does.
 */
public class IdLookupBackend extends H2Backend {
  public IdLookupBackend(String fileName) {
    super(fileName);
  }

  @Override
  protected MongoDatabase openOrCreateDatabase(String databaseName) {
    return new Database(databaseName, getMvStore(), getCursorRegistry());
  }

  /** Inner, not static: H2Database's constructor opens the existing collections, before any field of ours is set. */
  final class Database extends H2Database {
    Database(String name, MVStore store, CursorRegistry cursors) {
      super(name, store, cursors);
    }

    @Override
    protected MongoCollection<Object> openOrCreateCollection(String name, CollectionOptions options) {
      // The same maps, by the same names, as H2Database opens; documents stored as BSON (DocumentType).
      String namespace = getFullCollectionNamespace(name);
      MVStore store = getMvStore();
      MVMap<Object, Document> data =
          store.openMap("databases." + namespace, new MVMap.Builder<Object, Document>().valueType(new DocumentType()));
      MVMap<String, Object> meta = store.openMap("meta." + namespace);
      return new IdCollection(this, name, options, data, meta, cursorRegistry);
    }

    /**
     * mongo-java-server answers an insert with `n` = every document sent, also
     * when some were refused; MongoDB counts those stored: with `ordered` the
     * ones before the first error, else all but the refused.
     */
    @Override
    public Document handleCommand(Channel channel, String command, Document query, DatabaseResolver resolver, Oplog oplog) {
      Document result = super.handleCommand(channel, command, query, resolver, oplog);
      if (command.equalsIgnoreCase("insert") && result.get("writeErrors") instanceof List<?> errors && !errors.isEmpty()) {
        int sent = ((List<?>) query.get("documents")).size();
        boolean ordered = Utils.isTrue(query.get("ordered"));
        Object firstIndex = ((Document) errors.get(0)).get("index");
        result.put("n", ordered ? ((Number) firstIndex).intValue() : sent - errors.size());
      }
      return result;
    }

    @Override
    protected Index<Object> openOrCreateUniqueIndex(
        String collection, String indexName, List<IndexKey> keys, boolean sparse) {
      MVStore store = getMvStore();
      String legacy = getFullCollectionNamespace(collection) + "._index_" + indexName;
      if (store.hasMap(legacy)) store.removeMap(legacy);
      MVMap<KeyValue, Object> map =
          store.openMap(keyIndexMapName(collection, indexName), new MVMap.Builder<KeyValue, Object>().keyType(new KeyValueType()));
      return new KeyIndex(map, indexName, keys, sparse);
    }

    @Override
    protected void dropIndex(MongoCollection<Object> collection, String indexName) {
      super.dropIndex(collection, indexName);
      getMvStore().removeMap(keyIndexMapName(collection.getCollectionName(), indexName));
    }

    /** Under the database's prefix, so that dropping the database removes it too (H2Database.drop). */
    private String keyIndexMapName(String collection, String indexName) {
      return getFullCollectionNamespace(collection) + "._keyindex_" + indexName;
    }
  }

  static final class IdCollection extends H2Collection {
    IdCollection(
        MongoDatabase database,
        String name,
        CollectionOptions options,
        MVMap<Object, Document> data,
        MVMap<String, Object> meta,
        CursorRegistry cursors) {
      super(database, name, options, data, meta, cursors);
    }

    // Index changes take the collection's lock like every write does: unguarded,
    // an index built while documents are inserted breaks the insert
    // (ConcurrentModificationException on the list of indexes).
    @Override
    public synchronized void addIndex(Index<Object> index) {
      super.addIndex(index);
    }

    @Override
    public synchronized void dropIndex(String indexName) {
      super.dropIndex(indexName);
    }

    /**
     * The collection's data size, for collStats and validate, is summed when
     * asked instead of kept up to date: keeping it BSON-encodes the document
     * at every insert and delete, and both versions at every update (each
     * claim, renewal and result), and rewrites a counter in the store.
     */
    @Override
    protected boolean tracksDataSize() {
      return false;
    }

    @Override
    protected int getDataSize() {
      return streamAllDocumentsWithPosition().mapToInt(d -> bsonSize(d.getDocument())).sum();
    }

    private static int bsonSize(Document document) {
      ByteBuf buffer = Unpooled.buffer();
      try {
        BsonEncoder.encodeDocument(document, buffer);
        return buffer.writerIndex();
      } finally {
        buffer.release();
      }
    }

    @Override
    protected QueryResult matchDocuments(
        Document query,
        Document orderBy,
        int skip,
        int limit,
        int batchSize,
        Document fieldSelector) {
      List<Object> ids = plainIds(query.get("_id"));
      if (ids == null) {
        return super.matchDocuments(query, orderBy, skip, limit, batchSize, fieldSelector);
      }
      Stream<Document> candidates =
          ids.stream().distinct().map(id -> getDocument(Missing.ofNullable(id))).filter(Objects::nonNull);
      return matchDocumentsFromStream(candidates, query, orderBy, skip, limit, batchSize, fieldSelector);
    }

    /**
     * The ids a query's `_id` condition names, when it is one value or `{$in: [values]}`
     * of strings or ObjectIds, whose equality is plain equality (no operators, no
     * numeric widening); null for any other condition.
     */
    private static List<Object> plainIds(Object condition) {
      if (isPlainId(condition)) return List.of(condition);
      if (!(condition instanceof Document document) || !document.keySet().equals(Set.of("$in"))) return null;
      if (!(document.get("$in") instanceof Collection<?> values)) return null;
      List<Object> ids = new ArrayList<>(values.size());
      for (Object value : values) {
        if (!isPlainId(value)) return null;
        ids.add(value);
      }
      return ids;
    }

    private static boolean isPlainId(Object value) {
      return value instanceof String || value instanceof ObjectId;
    }
  }
}
