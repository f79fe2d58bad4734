/**
 * Kafka Streams state stores on pinrock. Start with
 * {@link dev.pinrock.kafka.PinrockDslStoreSuppliers} (one configuration line
 * moves every DSL store of an application) or the factories in
 * {@link dev.pinrock.kafka.PinrockStores}; tune stores with a
 * {@link dev.pinrock.kafka.PinrockConfigSetter} and the keys in
 * {@link dev.pinrock.kafka.PinrockStoreConfig}. The package
 * {@code dev.pinrock.kafka.internal} is not API.
 */
package dev.pinrock.kafka;
