import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.bson.BsonDecoder;
import de.bwaldvogel.mongo.wire.bson.BsonEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.ObjectDataType;

/**
 * The value type of collection maps: documents are stored as BSON, the
 * server's own wire encoding, instead of H2's default, Java serialisation
 * (a new ObjectOutputStream, class descriptors and UTF conversions for every
 * document; after the index fix it was most of the server's CPU while sub
 * tasks were written). BSON values carry a tag of their own that H2 never
 * writes, so documents stored before in H2's format still read.
 */
final class DocumentType extends ObjectDataType {
  /** Unused by ObjectDataType, whose tags end at 119 (byte arrays of 0 to 15 bytes). */
  private static final byte TAG_BSON = 120;

  /**
   * Memory a document is taken to use (twice its stored size, a moving average,
   * as H2 estimates serialised objects): the store's cache and commit sizing
   * count it. Races between threads only blur an estimate.
   */
  private volatile int averageSize = 10_000;

  @Override
  public int getMemory(Object value) {
    return value instanceof Document ? averageSize : super.getMemory(value);
  }

  private void sized(int storedBytes) {
    averageSize = (storedBytes * 2 + 15 * averageSize) / 16;
  }

  @Override
  public void write(WriteBuffer buff, Object value) {
    if (!(value instanceof Document document)) {
      super.write(buff, value);
      return;
    }
    ByteBuf bson = Unpooled.buffer();
    try {
      try {
        BsonEncoder.encodeDocument(document, bson);
      } catch (RuntimeException notBson) {
        // A value BSON cannot carry: H2's format keeps it, as before.
        super.write(buff, value);
        return;
      }
      buff.put(TAG_BSON).putVarInt(bson.readableBytes()).put(bson.nioBuffer());
      sized(bson.readableBytes());
    } finally {
      bson.release();
    }
  }

  @Override
  public Object read(ByteBuffer buff) {
    if (buff.get(buff.position()) != TAG_BSON) return super.read(buff);
    buff.get();
    int length = DataUtils.readVarInt(buff);
    sized(length);
    ByteBuffer slice = buff.slice();
    slice.limit(length);
    buff.position(buff.position() + length);
    return BsonDecoder.decodeBson(Unpooled.wrappedBuffer(slice));
  }
}
