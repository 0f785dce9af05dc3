"""The sections of the survey report (survey_report.py): each module reads
its groups of a bwsurvey HDF5 file and returns Section objects (a PNG it
drew, summary tables, notes), or nothing when its groups are absent."""
