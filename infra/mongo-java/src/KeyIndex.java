import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.backend.AbstractUniqueIndex;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.Missing;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.exception.DuplicateKeyError;
import java.util.List;
import java.util.Map.Entry;
import java.util.Set;
import org.h2.mvstore.MVMap;

/**
 * A unique index kept in an MVStore map ordered by KeyValueType; otherwise
 * H2UniqueIndex, except that adding a document's one key checks and stores it
 * in one step.
 */
final class KeyIndex extends AbstractUniqueIndex<Object> {
  private final MVMap<KeyValue, Object> map;

  KeyIndex(MVMap<KeyValue, Object> map, String name, List<IndexKey> keys, boolean sparse) {
    super(name, keys, sparse);
    this.map = map;
  }

  /**
   * The collection has just checked the document's keys (checkAdd) under its
   * lock; AbstractUniqueIndex.add checks them again before storing them, a
   * second B-tree search per key. With one key, putIfAbsent is that check.
   * Several keys (array values) or a sparse index take the general path.
   */
  @Override
  public synchronized void add(Document document, Object position, MongoCollection<Object> collection) {
    Set<KeyValue> keys = getKeyValues(document);
    if (isSparse() || keys.size() != 1) {
      super.add(document, position, collection);
      return;
    }
    KeyValue key = keys.iterator().next();
    if (!putKeyPosition(key, position)) throw new DuplicateKeyError(this, collection, getKeys(), key);
  }

  @Override
  protected Object removeDocument(KeyValue key) {
    return map.remove(key);
  }

  @Override
  protected boolean putKeyPosition(KeyValue key, Object position) {
    return map.putIfAbsent(key, Missing.ofNullable(position)) == null;
  }

  @Override
  protected Iterable<Entry<KeyValue, Object>> getIterable() {
    return map.entrySet();
  }

  @Override
  protected Object getPosition(KeyValue key) {
    return map.get(key);
  }

  @Override
  public long getCount() {
    return map.sizeAsLong();
  }

  @Override
  public boolean isEmpty() {
    return map.isEmpty();
  }

  @Override
  public long getDataSize() {
    return getCount();
  }
}
