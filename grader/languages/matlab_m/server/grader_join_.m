function s = grader_join_(parts)
% Comma-joined text (strjoin is an .m file, and this runs several times per call).
  if isempty(parts)
    s = '';
  else
    s = sprintf('%s,', parts{:});
    s = s(1:end - 1);
  end
end
