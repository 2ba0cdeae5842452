import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.bson.ObjectId;
import java.util.List;
import org.h2.mvstore.type.ObjectDataType;

/**
 * The key type of unique-index maps: H2's own type for storage, with an order
 * that does not serialise. H2 stores a KeyValue as a Java-serialised object
 * and compares two of them by serialising both, at every step of a B-tree
 * search; that was most of an insert's cost (three searches per document).
 *
 * Keys whose values are all strings, ObjectIds, integers, longs, doubles or
 * booleans (every `_id` the service writes) compare value by value; any other
 * key sorts after them and keeps H2's byte order. Both orders are consistent
 * with KeyValue.equals, so uniqueness means what it meant.
 */
final class KeyValueType extends ObjectDataType {
  private static final List<Class<?>> PLAIN =
      List.of(String.class, ObjectId.class, Integer.class, Long.class, Double.class, Boolean.class);

  @Override
  public int compare(Object a, Object b) {
    if (a == b) return 0;
    boolean plainA = isPlain(a);
    boolean plainB = isPlain(b);
    if (plainA && plainB) return comparePlain((KeyValue) a, (KeyValue) b);
    if (plainA != plainB) return plainA ? -1 : 1;
    return super.compare(a, b);
  }

  private static boolean isPlain(Object key) {
    if (!(key instanceof KeyValue values)) return false;
    for (Object value : values) {
      if (value == null || !PLAIN.contains(value.getClass())) return false;
    }
    return true;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int comparePlain(KeyValue a, KeyValue b) {
    int n = Math.min(a.size(), b.size());
    for (int i = 0; i < n; i++) {
      Object x = a.get(i);
      Object y = b.get(i);
      if (x.getClass() != y.getClass()) {
        return Integer.compare(PLAIN.indexOf(x.getClass()), PLAIN.indexOf(y.getClass()));
      }
      int c = ((Comparable) x).compareTo(y);
      if (c != 0) return c;
    }
    return Integer.compare(a.size(), b.size());
  }
}
