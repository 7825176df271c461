"""Packaging for glassworks, driven by settings.ini (the nbdev 2 convention)."""
from configparser import ConfigParser
import setuptools, shlex


config = ConfigParser(delimiters=['='])
config.read('settings.ini', encoding='utf-8')
cfg = config['DEFAULT']

licenses = {'apache2': 'Apache-2.0'}   # SPDX expression (setuptools deprecates the License :: classifiers)
statuses = ['1 - Planning', '2 - Pre-Alpha', '3 - Alpha', '4 - Beta', '5 - Production/Stable', '6 - Mature',
            '7 - Inactive']
py_versions = '3.10 3.11 3.12 3.13'.split()

requirements = shlex.split(cfg.get('requirements', ''))
dev_requirements = shlex.split(cfg.get('dev_requirements', ''))
distributed_requirements = shlex.split(cfg.get('distributed_requirements', ''))
lic = licenses[cfg['license'].lower()]
min_python = cfg['min_python']
console_scripts = shlex.split(cfg.get('console_scripts', ''))

setuptools.setup(
    name=cfg['lib_name'],
    license=lic,
    classifiers=['Development Status :: ' + statuses[int(cfg['status'])],
                 'Intended Audience :: ' + cfg['audience'],
                 'Natural Language :: ' + cfg['language']]
                + ['Programming Language :: Python :: ' + o for o in py_versions[py_versions.index(min_python):]],
    url=cfg['git_url'],
    # the code packages, and the data folders as namespace packages (folders without __init__.py), so that their
    # files are declared package data rather than left to setuptools' guess (which warns on every install)
    packages=setuptools.find_namespace_packages(include=['glassworks', 'glassworks.*'], exclude=['*.__pycache__']),
    include_package_data=True,
    package_data={'glassworks.data': ['README.md'], 'glassworks.data.classification': ['*.csv.gz'],
                  'glassworks.data.regression': ['*.csv.gz']},   # small binarised tables, see glassworks/data/README.md
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
