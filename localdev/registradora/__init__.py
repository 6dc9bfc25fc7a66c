"""A local registradora: B3's "Registro de Sinistro – V3" API (SUSEP's SRO) on this machine.

It exists so that development (``make run``) and the tests can send claims to something that
checks them the way the published layout says, without B3's certification environment.
"""
