#!/usr/bin/env python3
"""Makes and removes a locked collection in gnome-keyring, for SecKeychainTests' locked-keyring case.

The login collection is never locked: other tests use it at the same time.

  locked_collection.py create SERVICE ACCOUNT   creates a collection holding one item (attributes
                                                service, account, username), locks it, prints its path
  locked_collection.py remove PATH              unlocks the collection and deletes it

The collection's password is $SECKIT_TEST_KEYRING_PASSWORD. gnome-keyring's internal interface
creates and unlocks it without a prompt.
"""
import os
import sys

import secretstorage
from jeepney import DBusAddress, new_method_call

INTERNAL = DBusAddress('/org/freedesktop/secrets', bus_name='org.freedesktop.secrets',
                       interface='org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface')
SERVICE = DBusAddress('/org/freedesktop/secrets', bus_name='org.freedesktop.secrets',
                      interface='org.freedesktop.Secret.Service')


def master_secret(connection):
    """The collection password as a Secret Service secret on a plain session."""
    reply = connection.send_and_get_reply(new_method_call(SERVICE, 'OpenSession', 'sv', ('plain', ('s', ''))))
    password = os.environ['SECKIT_TEST_KEYRING_PASSWORD'].encode()
    return (reply.body[1], b'', password, 'text/plain')


def call(connection, method, signature, body):
    reply = connection.send_and_get_reply(new_method_call(INTERNAL, method, signature, body))
    if reply.header.message_type.name == 'error':
        sys.exit(f'{method}: {reply.body}')
    return reply.body


def create(service, account):
    connection = secretstorage.dbus_init()
    label = {'org.freedesktop.Secret.Collection.Label': ('s', f'SecKit locked test {service}')}
    (path,) = call(connection, 'CreateWithMasterPassword', 'a{sv}(oayays)', (label, master_secret(connection)))
    collection = secretstorage.Collection(connection, path)
    collection.create_item('locked test item', {'service': service, 'account': account, 'username': account}, b'hidden')
    collection.lock()
    if not collection.is_locked():
        sys.exit('the collection did not lock')
    print(path)


def remove(path):
    connection = secretstorage.dbus_init()
    call(connection, 'UnlockWithMasterPassword', 'o(oayays)', (path, master_secret(connection)))
    secretstorage.Collection(connection, path).delete()


if __name__ == '__main__':
    if sys.argv[1:2] == ['create'] and len(sys.argv) == 4:
        create(sys.argv[2], sys.argv[3])
    elif sys.argv[1:2] == ['remove'] and len(sys.argv) == 3:
        remove(sys.argv[2])
    else:
        sys.exit(__doc__)
