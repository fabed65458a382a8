/** Whether a Redis answers PING at host:port within the timeout (defaults 127.0.0.1:6379, 500 ms). */
export declare function redisAnswers(options?: { host?: string; port?: number; timeoutMs?: number }): Promise<boolean>;
