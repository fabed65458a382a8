/** Types for cluster-key-slot (ioredis's own slot function; the package ships none). */
declare module 'cluster-key-slot' {
  /** The Redis Cluster hash slot (0–16383) of a key, honouring a `{hash tag}`. */
  function calculateSlot(key: string | Buffer): number;
  namespace calculateSlot {
    /** The common slot of the keys, or -1 when they span several. */
    function generateMulti(keys: Array<string | Buffer>): number;
  }
  export = calculateSlot;
}
