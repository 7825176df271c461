"""Packaging for glassworks, driven by settings.ini (the nbdev 2 convention)."""
from configparser import ConfigParser
import setuptools, shlex


config = ConfigParser(delimiters=['='])
config.read('settings.ini', encoding='utf-8')
cfg = config['DEFAULT']

licenses = {'apache2': ('Apache Software License 2.0', 'OSI Approved :: Apache Software License')}
statuses = ['1 - Planning', '2 - Pre-Alpha', '3 - Alpha', '4 - Beta', '5 - Production/Stable', '6 - Mature', '7 - Inactive']
py_versions = '3.10 3.11 3.12 3.13'.split()

requirements = shlex.split(cfg.get('requirements', ''))
dev_requirements = shlex.split(cfg.get('dev_requirements', ''))
distributed_requirements = shlex.split(cfg.get('distributed_requirements', ''))
lic = licenses[cfg['license'].lower()]
min_python = cfg['min_python']
console_scripts = shlex.split(cfg.get('console_scripts', ''))

setuptools.setup(
    name=cfg['lib_name'],
    license=lic[0],
    classifiers=['Development Status :: ' + statuses[int(cfg['status'])],
                 'Intended Audience :: ' + cfg['audience'],
                 'License :: ' + lic[1],
                 'Natural Language :: ' + cfg['language']]
                + ['Programming Language :: Python :: ' + o for o in py_versions[py_versions.index(min_python):]],
    url=cfg['git_url'],
    packages=setuptools.find_packages(include=['glassworks', 'glassworks.*']),
    include_package_data=True,
    package_data={'glassworks': ['data/*/*.csv.gz', 'data/README.md']},   # small binarised tables, see glassworks/data/README.md
    install_requires=requirements,
    extras_require={'dev': dev_requirements, 'distributed': distributed_requirements},
    dependency_links=cfg.get('dep_links', '').split(),
    python_requires='>=' + cfg['min_python'],
    long_description=open('README.md', encoding='utf-8').read(),
    long_description_content_type='text/markdown',
    zip_safe=False,
    entry_points={'console_scripts': console_scripts, 'nbdev': [f'{cfg["lib_path"]}={cfg["lib_path"]}._modidx:d']},
    version=cfg['version'], author=cfg['author'], author_email=cfg['author_email'],
    description=cfg['description'], keywords=cfg['keywords'],
)
