"""confluent_kafka.schema_registry's serializers against gregor: produce one record in each format with
auto-registration, read them back with the deserializers, and try an incompatible Avro change.
Usage: schema_registry_serializers.py <bootstrap> <registry url> <topic prefix> produce|consume|incompatible [group suffix]
Prints one JSON line per result."""
import json
import sys

from confluent_kafka import Consumer, Producer
from confluent_kafka.schema_registry import Schema, SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer
from confluent_kafka.schema_registry.error import SchemaRegistryError
from confluent_kafka.schema_registry.json_schema import JSONDeserializer, JSONSerializer
from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer, ProtobufSerializer
from confluent_kafka.serialization import MessageField, SerializationContext
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

bootstrap, registry_url, prefix, action = sys.argv[1:5]
group_suffix = sys.argv[5] if len(sys.argv) > 5 else ''
registry = SchemaRegistryClient({'url': registry_url})

AVRO = json.dumps({'type': 'record', 'name': 'Payment', 'namespace': 'py.example',
                   'fields': [{'name': 'id', 'type': 'string'}, {'name': 'amount', 'type': 'double'}]})
JSON_SCHEMA = json.dumps({'$schema': 'http://json-schema.org/draft-07/schema#', 'title': 'Payment', 'type': 'object',
                          'properties': {'id': {'type': 'string'}, 'amount': {'type': 'number'}}, 'required': ['id']})


def payment_class():
    """A protobuf message class built at run time (no protoc here): py.example.Payment {string id = 1; double amount = 2;}."""
    file = descriptor_pb2.FileDescriptorProto(name='payment.proto', package='py.example', syntax='proto3')
    message = file.message_type.add(name='Payment')
    message.field.add(name='id', number=1, type=descriptor_pb2.FieldDescriptorProto.TYPE_STRING,
                      label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL)
    message.field.add(name='amount', number=2, type=descriptor_pb2.FieldDescriptorProto.TYPE_DOUBLE,
                      label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName('py.example.Payment'))


Payment = payment_class()
topics = {'avro': prefix + '-avro', 'json': prefix + '-json', 'protobuf': prefix + '-protobuf'}


def serializers():
    return {
        'avro': AvroSerializer(registry, AVRO),
        'json': JSONSerializer(JSON_SCHEMA, registry),
        'protobuf': ProtobufSerializer(Payment, registry),
    }


def deserializers():
    return {
        'avro': AvroDeserializer(registry),
        'json': JSONDeserializer(None, schema_registry_client=registry),
        'protobuf': ProtobufDeserializer(Payment, {}, registry),
    }


def produce():
    producer = Producer({'bootstrap.servers': bootstrap})
    record = {'id': 'p-1', 'amount': 12.5}
    for fmt, serializer in serializers().items():
        value = Payment(id='p-1', amount=12.5) if fmt == 'protobuf' else record
        data = serializer(value, SerializationContext(topics[fmt], MessageField.VALUE))
        producer.produce(topics[fmt], value=data)
        print(json.dumps({'format': fmt, 'schema_id': int.from_bytes(data[1:5], 'big')}))
    producer.flush(30)


def consume():
    for fmt, deserializer in deserializers().items():
        consumer = Consumer({'bootstrap.servers': bootstrap, 'group.id': prefix + '-py-' + fmt + group_suffix,
                             'auto.offset.reset': 'earliest'})
        consumer.subscribe([topics[fmt]])
        message = None
        for _ in range(60):
            message = consumer.poll(1.0)
            if message is not None and message.error() is None:
                break
        value = deserializer(message.value(), SerializationContext(topics[fmt], MessageField.VALUE))
        if fmt == 'protobuf':
            value = {'id': value.id, 'amount': value.amount}
        print(json.dumps({'format': fmt, 'value': value}))
        consumer.close()


def incompatible():
    changed = json.dumps({'type': 'record', 'name': 'Payment', 'namespace': 'py.example',
                          'fields': [{'name': 'id', 'type': 'string'}, {'name': 'amount', 'type': 'double'},
                                     {'name': 'currency', 'type': 'string'}]})
    try:
        registry.register_schema(topics['avro'] + '-value', Schema(changed, 'AVRO'))
        print(json.dumps({'registered': True}))
    except SchemaRegistryError as error:
        print(json.dumps({'http_status': error.http_status_code, 'error_code': error.error_code, 'message': error.error_message}))


{'produce': produce, 'consume': consume, 'incompatible': incompatible}[action]()
