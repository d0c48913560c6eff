/* Ring producer/consumer: implemented by the agent work. */
